/**
 * Every event the admin service publishes, declared once: it records them and consumers (audit,
 * the services acting on application settings) decode them through these definitions. Their
 * data are the messages of `proto/admin/v1/events.proto`.
 */
import { defineEvent } from '@platform/events';
import { ApplicationSettingChanged, CiVariableCreated, CiVariableDeleted, CiVariableUpdated } from '@platform/proto/admin/v1/events';

/** The admin service's events travel on one topic. */
export const ADMIN_TOPIC = 'admin.events';

export const adminEvents = {
  applicationSettingChanged: defineEvent('admin.application_setting.changed', ApplicationSettingChanged, { topic: ADMIN_TOPIC }),
  ciVariableCreated: defineEvent('admin.ci_variable.created', CiVariableCreated, { topic: ADMIN_TOPIC }),
  ciVariableUpdated: defineEvent('admin.ci_variable.updated', CiVariableUpdated, { topic: ADMIN_TOPIC }),
  ciVariableDeleted: defineEvent('admin.ci_variable.deleted', CiVariableDeleted, { topic: ADMIN_TOPIC }),
};
