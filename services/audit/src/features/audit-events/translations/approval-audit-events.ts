import { reviewEvents } from '@platform/review-client';
import { onEvent } from '@platform/events';
import { auditEvent, type AuditedEntity, type AuditTranslation } from './translation-helpers.ts';

type RuleData = {
  projectId: number;
  projectPath: string;
  ruleId: number;
  mergeRequestIid: number;
  name: string;
  approvalsRequired: number;
};

/** A project's rule, or one of a merge request's (`!3`), as the audit event's message names it. */
const described = (data: RuleData) => `approval rule ${data.name}${data.mergeRequestIid ? ` of !${data.mergeRequestIid}` : ''}`;

const target = (data: RuleData) => ({
  id: data.ruleId,
  type: data.mergeRequestIid ? 'ApprovalMergeRequestRule' : 'ApprovalProjectRule',
  details: data.name,
});

const entity = (data: RuleData): AuditedEntity => ({ type: 'Project', id: data.projectId, path: data.projectPath });

/** Audit events of approval rules created, changed and deleted in a project or its merge requests. */
export const approvalAuditEvents: AuditTranslation[] = [
  onEvent(reviewEvents.approvalRuleCreated, (data, event) =>
    auditEvent(event, {
      entity: entity(data),
      eventName: 'approval_rule_created',
      target: target(data),
      action: { custom_message: `Created ${described(data)} requiring ${data.approvalsRequired} approvals` },
    }),
  ),
  onEvent(reviewEvents.approvalRuleUpdated, (data, event) =>
    auditEvent(event, {
      entity: entity(data),
      eventName: 'approval_rule_updated',
      target: target(data),
      action: { custom_message: `Changed ${described(data)}, now requiring ${data.approvalsRequired} approvals` },
    }),
  ),
  onEvent(reviewEvents.approvalRuleDeleted, (data, event) =>
    auditEvent(event, {
      entity: entity(data),
      eventName: 'approval_rule_deleted',
      target: target(data),
      action: { custom_message: `Deleted ${described(data)}` },
    }),
  ),
];
