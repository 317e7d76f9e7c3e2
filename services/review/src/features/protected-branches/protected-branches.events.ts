import type { EventActor, OutgoingEvent } from '@platform/events';
import type { EventDefinition } from '@platform/events';
import type { ProtectedBranchChanged } from '@platform/proto/review/v1/events';
import type { BranchProtection } from './branch-protection.ts';

/** Whose change to which project's protections: recorded with the change as a review event. */
export interface ProtectionChange {
  project: { id: number; path: string };
  /** The user whose request or push made the change. */
  actor: EventActor | null;
}

/** The event of `definition` (created, updated, deleted) about `protection`, keyed by the project. */
export function protectedBranchEvent(
  definition: EventDefinition<ProtectedBranchChanged>,
  change: ProtectionChange,
  protection: BranchProtection,
): OutgoingEvent {
  const levels = (action: keyof BranchProtection['accessLevels']) => protection.accessLevels[action].map((level) => level.accessLevel);
  return definition.event({
    aggregateId: change.project.id,
    data: {
      projectId: change.project.id,
      projectPath: change.project.path,
      protectedBranchId: protection.id,
      name: protection.name,
      pushAccessLevels: levels('push'),
      mergeAccessLevels: levels('merge'),
      unprotectAccessLevels: levels('unprotect'),
      allowForcePush: protection.allowForcePush,
      codeOwnerApprovalRequired: protection.codeOwnerApprovalRequired,
    },
  });
}
