import { reviewEvents } from '@platform/review-client';
import { onEvent } from '@platform/events';
import type { ProtectedBranchChanged } from '@platform/proto/review/v1/events';
import { auditEvent, type AuditAction, type AuditTranslation } from './translation-helpers.ts';

/** GitLab's names of the roles a protected branch admits. */
const LEVEL_NAMES: Record<number, string> = { 0: 'No one', 30: 'Developers + Maintainers', 40: 'Maintainers', 60: 'Admins' };

const roles = (levels: number[]) =>
  levels.length === 0 ? 'No one' : levels.map((level) => LEVEL_NAMES[level] ?? `Access level ${level}`).join(', ');

/** The protection as a sentence: who may push, merge and unprotect, and whether force pushes are allowed. */
function described(data: ProtectedBranchChanged): string {
  return [
    `${roles(data.pushAccessLevels)} allowed to push`,
    `${roles(data.mergeAccessLevels)} allowed to merge`,
    `${roles(data.unprotectAccessLevels)} allowed to unprotect`,
    data.allowForcePush ? 'force push allowed' : 'force push not allowed',
    ...(data.codeOwnerApprovalRequired ? ['code owner approval required'] : []),
  ].join(', ');
}

function protectionEvent(eventName: string, action: (data: ProtectedBranchChanged) => AuditAction) {
  return (data: ProtectedBranchChanged, event: Parameters<typeof auditEvent>[0]) =>
    auditEvent(event, {
      entity: { type: 'Project', id: data.projectId, path: data.projectPath || String(data.projectId) },
      eventName,
      target: { id: data.protectedBranchId, type: 'ProtectedBranch', details: data.name },
      action: action(data),
    });
}

/** Audit events of a project's protected branches: protected, changed and unprotected. */
export const protectedBranchAuditEvents: AuditTranslation[] = [
  onEvent(
    reviewEvents.protectedBranchCreated,
    protectionEvent('protected_branch_created', (data) => ({
      add: 'protected_branch',
      custom_message: `Protected branch ${data.name}: ${described(data)}`,
    })),
  ),
  onEvent(
    reviewEvents.protectedBranchUpdated,
    protectionEvent('protected_branch_updated', (data) => ({
      custom_message: `Changed protected branch ${data.name}: ${described(data)}`,
    })),
  ),
  onEvent(
    reviewEvents.protectedBranchDeleted,
    protectionEvent('protected_branch_removed', (data) => ({
      remove: 'protected_branch',
      custom_message: `Unprotected branch ${data.name}`,
    })),
  ),
];
