import { adminEvents } from '@platform/admin-client';
import { onEvent, type EventEnvelope } from '@platform/events';
import type { NewAuditEvent } from '../audit-events-store.ts';
import { auditEvent, type AuditAction, type AuditTarget, type AuditTranslation } from './translation-helpers.ts';

/** The id of the instance's one application settings record. */
const APPLICATION_SETTINGS_ID = 1;

/**
 * Instance-level changes are audit events of the administrator who made them (entity `User`), as
 * GitLab records them; without an actor (the system), of the system's author.
 */
function instanceAuditEvent(event: EventEnvelope, options: { eventName: string; target: AuditTarget; action: AuditAction }): NewAuditEvent {
  const administrator = event.actor ?? { id: -1, username: 'System' };
  return auditEvent(event, { ...options, entity: { type: 'User', id: administrator.id, path: administrator.username } });
}

/** Instance variables are named by their key, as GitLab's audit events name them. */
const variableTarget = (key: string): AuditTarget => ({ id: key, type: 'Ci::InstanceVariable', details: key });

/** A value as the event carries it (JSON text), shown as text: `private` rather than `"private"`. */
function shown(json: string): string {
  try {
    const value: unknown = JSON.parse(json);
    if (value === null) return '';
    return typeof value === 'string' ? value : JSON.stringify(value);
  } catch {
    return json;
  }
}

/** Audit events of application settings and instance CI/CD variables changed by administrators. */
export const settingsAuditEvents: AuditTranslation[] = [
  onEvent(adminEvents.applicationSettingChanged, (data, event) => {
    const [from, to] = data.secret ? ['', ''] : [shown(data.from), shown(data.to)];
    return instanceAuditEvent(event, {
      eventName: 'application_setting_updated',
      target: { id: APPLICATION_SETTINGS_ID, type: 'ApplicationSetting', details: data.setting },
      action: {
        change: data.setting,
        from,
        to,
        custom_message: data.secret ? `Changed ${data.setting}` : `Changed ${data.setting} from ${from || 'nothing'} to ${to || 'nothing'}`,
      },
    });
  }),
  onEvent(adminEvents.ciVariableCreated, (data, event) =>
    instanceAuditEvent(event, {
      eventName: 'ci_instance_variable_created',
      target: variableTarget(data.variable?.key ?? ''),
      action: { add: 'ci_instance_variable', custom_message: 'Added ci variable' },
    }),
  ),
  onEvent(adminEvents.ciVariableUpdated, (data, event) =>
    instanceAuditEvent(event, {
      eventName: 'ci_instance_variable_updated',
      target: variableTarget(data.variable?.key ?? ''),
      action: {
        change: data.attribute,
        from: data.from,
        to: data.to,
        custom_message: data.attribute === 'value' ? 'Changed value' : `Changed ${data.attribute} from ${data.from} to ${data.to}`,
      },
    }),
  ),
  onEvent(adminEvents.ciVariableDeleted, (data, event) =>
    instanceAuditEvent(event, {
      eventName: 'ci_instance_variable_deleted',
      target: variableTarget(data.variable?.key ?? ''),
      action: { remove: 'ci_instance_variable', custom_message: 'Removed ci variable' },
    }),
  ),
];
