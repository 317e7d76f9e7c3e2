import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import type { EventEnvelope } from '@platform/events';
import {
  AccessRequestDenied,
  GroupTransferred,
  GroupUpdated,
  MemberRemoved,
  MembershipSourceType,
  ProjectShared,
  ProjectTransferred,
  type GroupSnapshot,
  type MemberSnapshot,
  type ProjectSnapshot,
} from '@platform/proto/identity/v1/namespace-events';
import { auditEventFor } from '../audit-event-translation.ts';

const group: GroupSnapshot = {
  id: 12,
  name: 'Sub',
  path: 'sub',
  fullPath: 'top/sub',
  fullName: 'Top / Sub',
  parentId: 11,
  visibility: 'private',
};
const project: ProjectSnapshot = {
  id: 30,
  name: 'App',
  path: 'app',
  pathWithNamespace: 'top/sub/app',
  nameWithNamespace: 'Top / Sub / App',
  namespaceId: 12,
  visibility: 'private',
  archived: false,
};
const member: MemberSnapshot = {
  id: 5,
  sourceType: MembershipSourceType.MEMBERSHIP_SOURCE_TYPE_PROJECT,
  sourceId: 30,
  sourceFullPath: 'top/sub/app',
  userId: 7,
  username: 'grace',
  userName: 'Grace',
  accessLevel: 30,
  expiresAt: '',
  userEmail: '',
  sourceName: '',
};
const root = { id: 1, username: 'root', name: 'Administrator', ip: '10.0.0.1' };

function envelope(type: string, data: unknown, actor: EventEnvelope['actor'] = root): EventEnvelope {
  return {
    id: randomUUID(),
    type,
    occurredAt: '2026-11-22T10:00:00.000Z',
    aggregateId: '12',
    actor,
    data: data as Record<string, unknown>,
    traceContext: {},
  };
}

describe('audit events of group, project and membership events', () => {
  it('names several group changes in one message, on the group', () => {
    const event = envelope(
      'identity.group.updated',
      GroupUpdated.toJSON({
        group,
        changes: [
          { attribute: 'name', from: 'Old', to: 'Sub' },
          { attribute: 'visibility', from: 'internal', to: 'private' },
        ],
      }),
    );
    expect(auditEventFor(event)).toMatchObject({
      authorId: 1,
      entityType: 'Group',
      entityId: 12,
      eventName: 'group_updated',
      details: {
        custom_message: "Changed name from 'Old' to 'Sub', visibility from 'internal' to 'private'",
        target_id: 12,
        target_type: 'Group',
        target_details: 'top/sub',
        entity_path: 'top/sub',
        author_name: 'Administrator',
        ip_address: '10.0.0.1',
      },
    });
  });

  it('records a removed project member on the project, with the user as target', () => {
    const audit = auditEventFor(envelope('identity.member.removed', MemberRemoved.toJSON({ member })));
    expect(audit).toMatchObject({
      entityType: 'Project',
      entityId: 30,
      eventName: 'member_destroyed',
      details: { remove: 'user_access', target_id: 7, target_type: 'User', target_details: 'grace', entity_path: 'top/sub/app' },
    });
  });

  it('tells a withdrawn access request from a denied one, and credits the system without an actor', () => {
    const withdrawn = auditEventFor(
      envelope('identity.access_request.denied', AccessRequestDenied.toJSON({ request: member, withdrawn: true })),
    );
    expect(withdrawn).toMatchObject({
      eventName: 'member_access_request_withdrawn',
      details: { custom_message: 'Withdrew the access request' },
    });
    const denied = auditEventFor(
      envelope('identity.access_request.denied', AccessRequestDenied.toJSON({ request: member, withdrawn: false }), null),
    );
    expect(denied).toMatchObject({
      authorId: -1,
      eventName: 'member_access_request_denied',
      details: { author_name: 'System', ip_address: null, custom_message: 'Denied the access request of grace' },
    });
  });

  it('records a project shared with a group on the project, naming the level', () => {
    const audit = auditEventFor(
      envelope('identity.project.shared', ProjectShared.toJSON({ project, group, groupAccess: 20, expiresAt: '' })),
    );
    expect(audit).toMatchObject({
      entityType: 'Project',
      entityId: 30,
      details: { target_type: 'Group', target_id: 12, custom_message: 'Invited top/sub to the project top/sub/app as Reporter' },
    });
  });

  it('skips an event whose payload lacks its subject', () => {
    expect(auditEventFor(envelope('identity.group.created', {}))).toBeUndefined();
    expect(auditEventFor(envelope('identity.group.updated', GroupUpdated.toJSON({ group, changes: [] })))).toBeUndefined();
  });

  it('records a transfer as a change of the path with namespace of the project, and of the full path of the group', () => {
    const moved = envelope(
      'identity.project.transferred',
      ProjectTransferred.toJSON({ project, previousPathWithNamespace: 'old/app', previousNamespaceId: 9 }),
    );
    expect(auditEventFor(moved)).toMatchObject({
      entityType: 'Project',
      entityId: 30,
      eventName: 'project_namespace_updated',
      details: {
        change: 'namespace',
        from: 'old/app',
        to: 'top/sub/app',
        custom_message: 'Changed namespace from old/app to top/sub/app',
        entity_path: 'top/sub/app',
      },
    });
    const promoted = envelope(
      'identity.group.transferred',
      GroupTransferred.toJSON({ group, previousFullPath: 'old/sub', previousParentId: 3 }),
    );
    expect(auditEventFor(promoted)).toMatchObject({
      entityType: 'Group',
      eventName: 'group_path_updated',
      details: { change: 'path', from: 'old/sub', to: 'top/sub', entity_path: 'top/sub' },
    });
  });
});
