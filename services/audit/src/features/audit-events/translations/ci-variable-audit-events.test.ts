import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { adminEvents } from '@platform/admin-client';
import type { EventEnvelope } from '@platform/events';
import type { CiVariable } from '@platform/proto/admin/v1/events';
import { auditEventFor } from '../audit-event-translation.ts';

const maintainer = { id: 5, username: 'maria', name: 'Maria', ip: '10.0.0.5' };

function envelope(event: { type: string; data: Record<string, unknown> }): EventEnvelope {
  return { id: randomUUID(), occurredAt: '2026-11-24T10:00:00.000Z', aggregateId: 'KEY', actor: maintainer, traceContext: {}, ...event };
}

const variable = (owner: CiVariable['owner']): CiVariable => ({
  key: 'DEPLOY_TOKEN',
  variableType: 'env_var',
  protected: false,
  masked: true,
  raw: false,
  id: 41,
  environmentScope: '*',
  owner,
});
const project = variable({ type: 'project', id: 7, fullPath: 'acme/app' });
const group = variable({ type: 'group', id: 3, fullPath: 'acme' });
const instance = variable(undefined);

const created = (of: CiVariable) =>
  auditEventFor(envelope(adminEvents.ciVariableCreated.event({ aggregateId: of.key, data: { variable: of } })));
const deleted = (of: CiVariable) =>
  auditEventFor(envelope(adminEvents.ciVariableDeleted.event({ aggregateId: of.key, data: { variable: of } })));
const updated = (of: CiVariable, change: { attribute: string; from: string; to: string }) =>
  auditEventFor(envelope(adminEvents.ciVariableUpdated.event({ aggregateId: of.key, data: { variable: of, ...change } })));

describe('audit events of CI/CD variables', () => {
  it("records a project variable's creation and deletion as the project's, under GitLab's names", () => {
    expect(created(project)).toEqual({
      authorId: 5,
      sourceEventId: expect.any(String),
      createdAt: new Date('2026-11-24T10:00:00.000Z'),
      entityType: 'Project',
      entityId: 7,
      eventName: 'ci_variable_created',
      details: {
        author_name: 'Maria',
        ip_address: '10.0.0.5',
        add: 'ci_variable',
        custom_message: 'Added ci variable',
        target_id: 41,
        target_type: 'Ci::Variable',
        target_details: 'DEPLOY_TOKEN',
        entity_path: 'acme/app',
      },
    });
    expect(deleted(project)).toMatchObject({
      entityType: 'Project',
      eventName: 'ci_variable_deleted',
      details: { remove: 'ci_variable', custom_message: 'Removed ci variable', target_type: 'Ci::Variable' },
    });
  });

  it("records a group variable's as the group's, and an instance variable's as the administrator's", () => {
    expect(created(group)).toMatchObject({
      entityType: 'Group',
      entityId: 3,
      eventName: 'ci_group_variable_created',
      details: {
        add: 'ci_group_variable',
        custom_message: 'Added ci group variable',
        target_type: 'Ci::GroupVariable',
        entity_path: 'acme',
      },
    });
    expect(deleted(group)).toMatchObject({
      eventName: 'ci_group_variable_deleted',
      details: { custom_message: 'Removed ci group variable' },
    });
    expect(created(instance)).toMatchObject({
      entityType: 'User',
      entityId: 5,
      eventName: 'ci_instance_variable_created',
      details: {
        add: 'ci_instance_variable',
        custom_message: 'Added ci instance variable',
        target_type: 'Ci::InstanceVariable',
        entity_path: 'maria',
      },
    });
  });

  it('records the changes GitLab audits, protection, masking, environment scope and the value, never showing a value', () => {
    expect(updated(project, { attribute: 'protected', from: 'false', to: 'true' })).toMatchObject({
      entityType: 'Project',
      eventName: 'ci_variable_updated',
      details: {
        change: 'variable protection',
        from: 'false',
        to: 'true',
        custom_message: 'Changed variable protection from false to true',
      },
    });
    expect(updated(group, { attribute: 'masked', from: 'true', to: 'false' })?.details).toMatchObject({
      change: 'variable masking',
      custom_message: 'Changed variable masking from true to false',
    });
    expect(updated(project, { attribute: 'environment_scope', from: '*', to: 'production' })?.details.custom_message).toBe(
      'Changed environment scope from * to production',
    );
    const value = updated(instance, { attribute: 'value', from: '', to: '' });
    expect(value).toMatchObject({
      eventName: 'ci_instance_variable_updated',
      details: { change: 'value(hidden)', custom_message: 'Changed value(hidden)' },
    });
    expect(value?.details).not.toHaveProperty('from');
    expect(value?.details).not.toHaveProperty('to');
  });

  it('leaves out the changes GitLab does not audit', () => {
    expect(updated(project, { attribute: 'raw', from: 'false', to: 'true' })).toBeUndefined();
    expect(updated(project, { attribute: 'variable_type', from: 'env_var', to: 'file' })).toBeUndefined();
    expect(updated(project, { attribute: 'description', from: '', to: 'for deploys' })).toBeUndefined();
  });
});
