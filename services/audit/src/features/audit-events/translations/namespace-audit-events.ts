import { identityEvents } from '@platform/identity-client';
import { onEvent } from '@platform/events';
import {
  MembershipSourceType,
  type GroupSnapshot,
  type MemberSnapshot,
  type ProjectSnapshot,
} from '@platform/proto/identity/v1/namespace-events';
import type { AttributeChange } from '@platform/proto/identity/v1/events';
import { auditEvent, type AuditAction, type AuditedEntity, type AuditTranslation } from './translation-helpers.ts';

const LEVEL_NAMES: Record<number, string> = { 10: 'Guest', 20: 'Reporter', 30: 'Developer', 40: 'Maintainer', 50: 'Owner' };

function levelName(level: number): string {
  return LEVEL_NAMES[level] ?? `Access level ${level}`;
}

function groupEntity(group: GroupSnapshot): AuditedEntity {
  return { type: 'Group', id: group.id, path: group.fullPath };
}

function projectEntity(project: ProjectSnapshot): AuditedEntity {
  return { type: 'Project', id: project.id, path: project.pathWithNamespace };
}

function memberEntity(member: MemberSnapshot): AuditedEntity {
  const type = member.sourceType === MembershipSourceType.MEMBERSHIP_SOURCE_TYPE_GROUP ? 'Group' : 'Project';
  return { type, id: member.sourceId, path: member.sourceFullPath };
}

/** One change reads as change, from and to; several as a message naming each. */
function changeAction(changes: AttributeChange[]): AuditAction {
  const [only] = changes;
  if (changes.length === 1 && only) return { change: only.attribute, from: only.from, to: only.to };
  return { custom_message: `Changed ${changes.map((change) => `${change.attribute} from '${change.from}' to '${change.to}'`).join(', ')}` };
}

function memberTarget(member: MemberSnapshot) {
  return { id: member.userId, type: 'User', details: member.username };
}

function groupTarget(group: GroupSnapshot) {
  return { id: group.id, type: 'Group', details: group.fullPath };
}

function projectTarget(project: ProjectSnapshot) {
  return { id: project.id, type: 'Project', details: project.pathWithNamespace };
}

/** Audit events for identity's group, project, membership and access request events, by event type. */
export const namespaceAuditEvents: AuditTranslation[] = [
  onEvent(identityEvents.groupCreated, (data, event) => {
    const { group } = data;
    return (
      group &&
      auditEvent(event, {
        entity: groupEntity(group),
        eventName: 'group_created',
        target: groupTarget(group),
        action: { add: 'group' },
      })
    );
  }),
  onEvent(identityEvents.groupUpdated, (data, event) => {
    const { group, changes } = data;
    if (!group || changes.length === 0) return undefined;
    return auditEvent(event, {
      entity: groupEntity(group),
      eventName: 'group_updated',
      target: groupTarget(group),
      action: changeAction(changes),
    });
  }),
  onEvent(identityEvents.groupDeleted, (data, event) => {
    const { group } = data;
    return (
      group &&
      auditEvent(event, {
        entity: groupEntity(group),
        eventName: 'group_destroyed',
        target: groupTarget(group),
        action: { remove: 'group' },
      })
    );
  }),
  onEvent(identityEvents.groupShared, (data, event) => {
    const { group, sharedWithGroup, groupAccess } = data;
    if (!group || !sharedWithGroup) return undefined;
    return auditEvent(event, {
      entity: groupEntity(group),
      eventName: 'group_share_with_group_link_created',
      target: groupTarget(sharedWithGroup),
      action: { custom_message: `Invited ${sharedWithGroup.fullPath} to the group ${group.fullPath} as ${levelName(groupAccess)}` },
    });
  }),
  onEvent(identityEvents.groupUnshared, (data, event) => {
    const { group, sharedWithGroup } = data;
    if (!group || !sharedWithGroup) return undefined;
    return auditEvent(event, {
      entity: groupEntity(group),
      eventName: 'group_share_with_group_link_removed',
      target: groupTarget(sharedWithGroup),
      action: { custom_message: `Removed ${sharedWithGroup.fullPath} from the group ${group.fullPath}` },
    });
  }),
  onEvent(identityEvents.groupTransferred, (data, event) => {
    const { group, previousFullPath } = data;
    if (!group) return undefined;
    // A transfer is a change of the full path, of the group and of all below it.
    return auditEvent(event, {
      entity: groupEntity(group),
      eventName: 'group_path_updated',
      target: groupTarget(group),
      action: { change: 'path', from: previousFullPath, to: group.fullPath },
    });
  }),
  onEvent(identityEvents.projectCreated, (data, event) => {
    const { project } = data;
    return (
      project &&
      auditEvent(event, {
        entity: projectEntity(project),
        eventName: 'project_created',
        target: projectTarget(project),
        action: { add: 'project' },
      })
    );
  }),
  onEvent(identityEvents.projectUpdated, (data, event) => {
    const { project, changes } = data;
    if (!project || changes.length === 0) return undefined;
    return auditEvent(event, {
      entity: projectEntity(project),
      eventName: 'project_updated',
      target: projectTarget(project),
      action: changeAction(changes),
    });
  }),
  onEvent(identityEvents.projectDeleted, (data, event) => {
    const { project } = data;
    return (
      project &&
      auditEvent(event, {
        entity: projectEntity(project),
        eventName: 'project_destroyed',
        target: projectTarget(project),
        action: { remove: 'project' },
      })
    );
  }),
  onEvent(identityEvents.projectTransferred, (data, event) => {
    const { project, previousPathWithNamespace } = data;
    if (!project) return undefined;
    return auditEvent(event, {
      entity: projectEntity(project),
      eventName: 'project_namespace_updated',
      target: projectTarget(project),
      action: {
        change: 'namespace',
        from: previousPathWithNamespace,
        to: project.pathWithNamespace,
        custom_message: `Changed namespace from ${previousPathWithNamespace} to ${project.pathWithNamespace}`,
      },
    });
  }),
  onEvent(identityEvents.projectShared, (data, event) => {
    const { project, group, groupAccess } = data;
    if (!project || !group) return undefined;
    return auditEvent(event, {
      entity: projectEntity(project),
      eventName: 'project_group_link_created',
      target: groupTarget(group),
      action: { custom_message: `Invited ${group.fullPath} to the project ${project.pathWithNamespace} as ${levelName(groupAccess)}` },
    });
  }),
  onEvent(identityEvents.projectUnshared, (data, event) => {
    const { project, group } = data;
    if (!project || !group) return undefined;
    return auditEvent(event, {
      entity: projectEntity(project),
      eventName: 'project_group_link_deleted',
      target: groupTarget(group),
      action: { custom_message: `Removed ${group.fullPath} from the project ${project.pathWithNamespace}` },
    });
  }),
  onEvent(identityEvents.memberAdded, (data, event) => {
    const { member } = data;
    return (
      member &&
      auditEvent(event, {
        entity: memberEntity(member),
        eventName: 'member_created',
        target: memberTarget(member),
        action: { add: 'user_access', as: levelName(member.accessLevel) },
      })
    );
  }),
  onEvent(identityEvents.memberUpdated, (data, event) => {
    const { member, previousAccessLevel, previousExpiresAt } = data;
    if (!member) return undefined;
    const action: AuditAction =
      previousAccessLevel !== member.accessLevel
        ? { change: 'access_level', from: levelName(previousAccessLevel), to: levelName(member.accessLevel) }
        : { change: 'expiry', from: previousExpiresAt || 'never expires', to: member.expiresAt || 'never expires' };
    return auditEvent(event, { entity: memberEntity(member), eventName: 'member_updated', target: memberTarget(member), action });
  }),
  onEvent(identityEvents.memberRemoved, (data, event) => {
    const { member } = data;
    return (
      member &&
      auditEvent(event, {
        entity: memberEntity(member),
        eventName: 'member_destroyed',
        target: memberTarget(member),
        action: { remove: 'user_access' },
      })
    );
  }),
  onEvent(identityEvents.accessRequested, (data, event) => {
    const { request } = data;
    return (
      request &&
      auditEvent(event, {
        entity: memberEntity(request),
        eventName: 'member_access_requested',
        target: memberTarget(request),
        action: { custom_message: 'Requested access' },
      })
    );
  }),
  onEvent(identityEvents.accessRequestApproved, (data, event) => {
    const { member } = data;
    return (
      member &&
      auditEvent(event, {
        entity: memberEntity(member),
        eventName: 'member_access_request_approved',
        target: memberTarget(member),
        action: { custom_message: `Approved the access request of ${member.username} as ${levelName(member.accessLevel)}` },
      })
    );
  }),
  onEvent(identityEvents.accessRequestDenied, (data, event) => {
    const { request, withdrawn } = data;
    return (
      request &&
      auditEvent(event, {
        entity: memberEntity(request),
        eventName: withdrawn ? 'member_access_request_withdrawn' : 'member_access_request_denied',
        target: memberTarget(request),
        action: { custom_message: withdrawn ? 'Withdrew the access request' : `Denied the access request of ${request.username}` },
      })
    );
  }),
];
