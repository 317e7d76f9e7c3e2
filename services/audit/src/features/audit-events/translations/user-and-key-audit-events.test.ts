import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import type { EventEnvelope } from '@platform/events';
import {
  GpgKeyAdded,
  SshKeyAdded,
  SshKeyRemoved,
  UserBlocked,
  UserDeleted,
  UserUnblocked,
  UserUpdated,
  type UserSnapshot,
} from '@platform/proto/identity/v1/events';
import { auditEventFor } from '../audit-event-translation.ts';

const grace: UserSnapshot = {
  id: 7,
  username: 'grace',
  name: 'Grace',
  email: 'grace@example.com',
  isAdmin: false,
  state: 'active',
  privateProfile: false,
};
const root = { id: 1, username: 'root', name: 'Administrator', ip: '10.0.0.1' };

function envelope(type: string, data: unknown): EventEnvelope {
  return {
    id: randomUUID(),
    type,
    occurredAt: '2026-11-22T10:00:00.000Z',
    aggregateId: '7',
    actor: root,
    data: data as Record<string, unknown>,
    traceContext: {},
  };
}

const userTarget = {
  target_id: 7,
  target_type: 'User',
  target_details: 'grace',
  entity_path: 'grace',
  author_name: 'Administrator',
  ip_address: '10.0.0.1',
};

describe('audit events of user events', () => {
  it('records a single attribute change as change, from and to', () => {
    const event = envelope(
      'identity.user.updated',
      UserUpdated.toJSON({ user: grace, changes: [{ attribute: 'email', from: 'a@example.com', to: 'b@example.com' }] }),
    );
    expect(auditEventFor(event)).toEqual({
      authorId: 1,
      sourceEventId: event.id,
      createdAt: new Date('2026-11-22T10:00:00.000Z'),
      entityId: 7,
      entityType: 'User',
      eventName: 'user_updated',
      details: { ...userTarget, change: 'email', from: 'a@example.com', to: 'b@example.com' },
    });
  });

  it('names several changes, or a secret one, in a message, and skips updates that changed nothing', () => {
    const several = UserUpdated.toJSON({
      user: grace,
      changes: [
        { attribute: 'name', from: 'G', to: 'Grace' },
        { attribute: 'password', from: '', to: '' },
      ],
    });
    expect(auditEventFor(envelope('identity.user.updated', several))?.details).toMatchObject({ custom_message: 'Changed name, password' });
    const password = UserUpdated.toJSON({ user: grace, changes: [{ attribute: 'password', from: '', to: '' }] });
    expect(auditEventFor(envelope('identity.user.updated', password))?.details).toEqual({
      ...userTarget,
      custom_message: 'Changed password',
    });
    expect(auditEventFor(envelope('identity.user.updated', UserUpdated.toJSON({ user: grace, changes: [] })))).toBeUndefined();
  });

  it('records deactivation, activation, bans and their lifting under their own names, as GitLab does', () => {
    const stateChange = (from: string, to: string) =>
      auditEventFor(
        envelope(
          'identity.user.updated',
          UserUpdated.toJSON({ user: { ...grace, state: to }, changes: [{ attribute: 'state', from, to }] }),
        ),
      );
    expect(stateChange('active', 'deactivated')).toMatchObject({
      eventName: 'user_deactivate',
      details: { ...userTarget, custom_message: 'Deactivated user' },
    });
    expect(stateChange('deactivated', 'active')).toMatchObject({
      eventName: 'user_activate',
      details: { custom_message: 'Activated user' },
    });
    expect(stateChange('active', 'banned')).toMatchObject({ eventName: 'ban_user', details: { custom_message: 'Banned user' } });
    expect(stateChange('banned', 'active')).toMatchObject({ eventName: 'unban_user', details: { custom_message: 'Unbanned user' } });
  });

  it('records blocking, unblocking and deletion', () => {
    expect(auditEventFor(envelope('identity.user.blocked', UserBlocked.toJSON({ user: grace })))).toMatchObject({
      eventName: 'user_blocked',
      details: { ...userTarget, custom_message: 'Blocked user' },
    });
    expect(auditEventFor(envelope('identity.user.unblocked', UserUnblocked.toJSON({ user: grace })))?.details.custom_message).toBe(
      'Unblocked user',
    );
    const deleted = auditEventFor(
      envelope('identity.user.deleted', UserDeleted.toJSON({ user: grace, hardDelete: false, ghostUserId: 3 })),
    );
    expect(deleted).toMatchObject({ entityId: 7, eventName: 'user_destroyed', details: { remove: 'user', target_details: 'grace' } });
  });
});

describe('audit events of key events', () => {
  it('records an SSH key added to a user, with the key as target', () => {
    const data = SshKeyAdded.toJSON({ user: grace, key: { id: 40, title: 'Laptop', fingerprintSha256: 'abc', usageType: 'auth' } });
    expect(auditEventFor(envelope('identity.ssh_key.added', data))).toMatchObject({
      authorId: 1,
      entityId: 7,
      entityType: 'User',
      eventName: 'add_ssh_key',
      details: {
        add: 'SSH key',
        target_id: 40,
        target_type: 'Key',
        target_details: 'Laptop',
        entity_path: 'grace',
        author_name: 'Administrator',
      },
    });
  });

  it('records SSH key removal and GPG keys', () => {
    const removed = SshKeyRemoved.toJSON({ user: grace, key: { id: 40, title: 'Laptop', fingerprintSha256: 'abc', usageType: 'auth' } });
    expect(auditEventFor(envelope('identity.ssh_key.removed', removed))).toMatchObject({
      eventName: 'remove_ssh_key',
      details: { remove: 'SSH key' },
    });
    const gpg = GpgKeyAdded.toJSON({ user: grace, key: { id: 5, primaryKeyid: 'ABCDEF0123456789', fingerprint: 'F'.repeat(40) } });
    expect(auditEventFor(envelope('identity.gpg_key.added', gpg))).toMatchObject({
      eventName: 'add_gpg_key',
      details: { add: 'GPG key', target_type: 'GpgKey', target_details: 'ABCDEF0123456789' },
    });
  });

  it('ignores a key event without its key', () => {
    expect(auditEventFor(envelope('identity.ssh_key.added', SshKeyAdded.toJSON({ user: grace, key: undefined })))).toBeUndefined();
  });
});
