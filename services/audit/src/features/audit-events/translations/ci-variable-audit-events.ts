import { adminEvents } from '@platform/admin-client';
import { onEvent, type EventEnvelope } from '@platform/events';
import type { CiVariable } from '@platform/proto/admin/v1/events';
import type { NewAuditEvent } from '../audit-events-store.ts';
import { auditEvent, instanceAuditEvent, type AuditAction, type AuditTranslation } from './translation-helpers.ts';

/**
 * A variable as GitLab's `Ci::AuditVariableChangeService` names it, by its class: `Ci::Variable`
 * (a project's), `Ci::GroupVariable` or `Ci::InstanceVariable`, and `ci_variable` and so on in
 * event names, `add`/`remove` and messages.
 */
function kindOf(variable: CiVariable): { name: string; targetType: string } {
  if (variable.owner?.type === 'project') return { name: 'ci_variable', targetType: 'Ci::Variable' };
  if (variable.owner?.type === 'group') return { name: 'ci_group_variable', targetType: 'Ci::GroupVariable' };
  return { name: 'ci_instance_variable', targetType: 'Ci::InstanceVariable' };
}

/** The attributes whose changes GitLab audits, under its names for them; a value's change shows no value. */
const AUDITED_CHANGES: Record<string, string> = {
  protected: 'variable protection',
  masked: 'variable masking',
  value: 'value(hidden)',
  environment_scope: 'environment scope',
};

/** A project's or group's variable is the project's or group's audit event; the instance's, the administrator's. */
function variableAuditEvent(
  event: EventEnvelope,
  options: { variable: CiVariable; eventName: string; action: AuditAction },
): NewAuditEvent {
  const { variable, eventName, action } = options;
  // Events from before variables' ids were carried name the variable by its key.
  const target = { id: variable.id || variable.key, type: kindOf(variable).targetType, details: variable.key };
  const { owner } = variable;
  if (!owner) return instanceAuditEvent(event, { eventName, target, action });
  const entity = { type: owner.type === 'group' ? ('Group' as const) : ('Project' as const), id: owner.id, path: owner.fullPath };
  return auditEvent(event, { entity, eventName, target, action });
}

/** GitLab's message of a change: `Changed variable protection from false to true`, `Changed value(hidden)`. */
function changeAction(change: string, values?: { from: string; to: string }): AuditAction {
  if (!values) return { change, custom_message: `Changed ${change}` };
  const message = [`Changed ${change}`, values.from && `from ${values.from}`, values.to && `to ${values.to}`].filter(Boolean).join(' ');
  return { change, from: values.from, to: values.to, custom_message: message };
}

/** Audit events of CI/CD variables of projects, groups and the instance, as GitLab records them; never a value. */
export const ciVariableAuditEvents: AuditTranslation[] = [
  onEvent(adminEvents.ciVariableCreated, ({ variable }, event) => {
    if (!variable) return undefined;
    const { name } = kindOf(variable);
    const action = { add: name, custom_message: `Added ${name.replaceAll('_', ' ')}` };
    return variableAuditEvent(event, { variable, eventName: `${name}_created`, action });
  }),
  onEvent(adminEvents.ciVariableUpdated, (data, event) => {
    const { variable } = data;
    const change = AUDITED_CHANGES[data.attribute];
    if (!variable || !change) return undefined;
    const action = data.attribute === 'value' ? changeAction(change) : changeAction(change, data);
    return variableAuditEvent(event, { variable, eventName: `${kindOf(variable).name}_updated`, action });
  }),
  onEvent(adminEvents.ciVariableDeleted, ({ variable }, event) => {
    if (!variable) return undefined;
    const { name } = kindOf(variable);
    const action = { remove: name, custom_message: `Removed ${name.replaceAll('_', ' ')}` };
    return variableAuditEvent(event, { variable, eventName: `${name}_deleted`, action });
  }),
];
