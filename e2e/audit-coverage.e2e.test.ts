/**
 * Security-relevant changes in identity, review and admin reach audit through Kafka as audit
 * events at the right level, through the real gateway: personal access tokens issued, rotated and
 * revoked and secondary emails added and removed (the owner's), branches protected, changed and
 * unprotected (the project's), the default branch's protection on a first push included, deploy
 * keys added, enabled and removed (the project's; an instance key, the administrator's), deploy
 * tokens created and deleted (the project's or group's), and project and group CI/CD variables
 * created, changed and deleted (the project's or group's, never with a value).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import sshpk from 'sshpk';
import type { RunningPlatform } from '@platform/devstack';
import { waitFor } from '@platform/testing';
import { createWorkDir, E2E_ROOT_TOKEN, removeWorkDir, startTestPlatform } from './harness.ts';
import { gitRemote, gitCli, type Git } from './git-cli.ts';

let platform: RunningPlatform & { databasePrefix: string };
let gateway: ReturnType<typeof request>;
let work: string;
const asRoot = { 'PRIVATE-TOKEN': E2E_ROOT_TOKEN };
let git: Git;

interface AuditEventBody {
  event_name: string;
  author_id: number;
  entity_type: string;
  entity_id: number;
  details: Record<string, unknown>;
}

/** The audit events at `path` once `names` are all among them (a name listed twice must occur twice), newest first. */
async function auditEventsAt(pathAndQuery: string, names: string[]): Promise<AuditEventBody[]> {
  return waitFor(
    async () => {
      const response = await gateway.get(pathAndQuery).set(asRoot);
      if (response.status !== 200) return undefined;
      const events = response.body as AuditEventBody[];
      const seen = events.map((event) => event.event_name);
      const occurrences = (name: string, among: string[]) => among.filter((each) => each === name).length;
      return names.every((name) => occurrences(name, seen) >= occurrences(name, names)) ? events : undefined;
    },
    { what: `${names.join(', ')} at ${pathAndQuery}` },
  );
}

beforeAll(async () => {
  work = createWorkDir('audit-coverage');
  git = await gitCli(work);
  platform = await startTestPlatform({ services: ['identity', 'review', 'admin', 'audit'] });
  gateway = request(platform.url);
}, 180_000);

afterAll(async () => {
  await platform?.stop();
  removeWorkDir(work);
});

describe('audit coverage', () => {
  it("records personal access tokens issued, rotated and revoked as their owner's audit events", async () => {
    const user = await gateway
      .post('/api/v4/users')
      .set(asRoot)
      .send({ email: 'audited@example.com', name: 'Audited', username: 'audited', password: 'a-long-enough-password' });
    expect(user.status).toBe(201);
    const issued = await gateway
      .post(`/api/v4/users/${user.body.id}/personal_access_tokens`)
      .set(asRoot)
      .send({ name: 'ci', scopes: ['api'] });
    expect(issued.status).toBe(201);
    const rotated = await gateway.post('/api/v4/personal_access_tokens/self/rotate').set({ 'PRIVATE-TOKEN': issued.body.token });
    expect(rotated.status).toBe(200);
    expect((await gateway.delete('/api/v4/personal_access_tokens/self').set({ 'PRIVATE-TOKEN': rotated.body.token })).status).toBe(204);

    const events = await auditEventsAt(`/api/v4/audit_events?entity_type=User&entity_id=${user.body.id}`, [
      'personal_access_token_created',
      'personal_access_token_rotated',
      'personal_access_token_revoked',
      'personal_access_token_revoked',
    ]);
    const created = events.find((event) => event.event_name === 'personal_access_token_created');
    expect(created).toMatchObject({
      author_id: 1,
      entity_type: 'User',
      details: { target_id: issued.body.id, target_type: 'PersonalAccessToken', target_details: 'ci', entity_path: 'audited' },
    });
    // Rotating revokes the old token and issues its successor, both by the owner.
    const byOwner = events.filter((event) => event.author_id === user.body.id).map((event) => event.event_name);
    expect(byOwner).toEqual(expect.arrayContaining(['personal_access_token_rotated', 'personal_access_token_revoked']));
    expect(byOwner.filter((name) => name === 'personal_access_token_revoked')).toHaveLength(2);
  });

  it("records branches protected on the first push, by hand, changed and unprotected as the project's audit events", async () => {
    const project = await gateway.post('/api/v4/projects').set(asRoot).send({ name: 'guarded', path: 'guarded', visibility: 'private' });
    expect(project.status).toBe(201);
    expect((await git(['clone', '-q', gitRemote(platform.url, E2E_ROOT_TOKEN, 'root/guarded'), 'guarded'])).code).toBe(0);
    const clone = path.join(work, 'guarded');
    writeFileSync(path.join(clone, 'README.md'), 'hello\n');
    expect((await git(['add', 'README.md'], clone)).code).toBe(0);
    expect((await git(['commit', '-q', '-m', 'Initial commit'], clone)).code).toBe(0);
    expect((await git(['push', '-q', 'origin', 'HEAD:refs/heads/main'], clone)).code).toBe(0);

    const base = `/api/v4/projects/${project.body.id}/protected_branches`;
    expect((await gateway.post(base).set(asRoot).send({ name: 'release/*', push_access_level: 40, merge_access_level: 30 })).status).toBe(
      201,
    );
    expect(
      (
        await gateway
          .patch(`${base}/${encodeURIComponent('release/*')}`)
          .set(asRoot)
          .send({ allow_force_push: true })
      ).status,
    ).toBe(200);
    expect((await gateway.delete(`${base}/${encodeURIComponent('release/*')}`).set(asRoot)).status).toBe(204);

    const events = await auditEventsAt(`/api/v4/projects/${project.body.id}/audit_events`, [
      'protected_branch_created',
      'protected_branch_updated',
      'protected_branch_removed',
    ]);
    const protectedBranches = events.filter((event) => event.event_name.startsWith('protected_branch_'));
    expect(protectedBranches.map((event) => [event.event_name, event.details.target_details])).toEqual([
      ['protected_branch_removed', 'release/*'],
      ['protected_branch_updated', 'release/*'],
      ['protected_branch_created', 'release/*'],
      ['protected_branch_created', 'main'],
    ]);
    expect(protectedBranches[1]?.details.custom_message).toBe(
      'Changed protected branch release/*: Maintainers allowed to push, Developers + Maintainers allowed to merge, Maintainers allowed to unprotect, force push allowed',
    );
    for (const event of protectedBranches)
      expect(event).toMatchObject({ entity_type: 'Project', details: { entity_path: 'root/guarded', author_name: 'Administrator' } });
  });

  it("records secondary emails added and removed as their owner's audit events", async () => {
    const user = await gateway
      .post('/api/v4/users')
      .set(asRoot)
      .send({ email: 'mailer@example.com', name: 'Mailer', username: 'mailer', password: 'a-long-enough-password' });
    expect(user.status).toBe(201);
    const token = await gateway
      .post(`/api/v4/users/${user.body.id}/personal_access_tokens`)
      .set(asRoot)
      .send({ name: 'own', scopes: ['api'] });
    const added = await gateway
      .post('/api/v4/user/emails')
      .set({ 'PRIVATE-TOKEN': token.body.token })
      .send({ email: 'mailer-second@example.com' });
    expect(added.status).toBe(201);
    expect((await gateway.delete(`/api/v4/users/${user.body.id}/emails/${added.body.id}`).set(asRoot)).status).toBe(204);

    const events = await auditEventsAt(`/api/v4/audit_events?entity_type=User&entity_id=${user.body.id}`, [
      'email_created',
      'email_destroyed',
    ]);
    const target = { target_id: added.body.id, target_type: 'Email', target_details: 'mailer-second@example.com', entity_path: 'mailer' };
    expect(events.find((event) => event.event_name === 'email_created')).toMatchObject({
      author_id: user.body.id,
      entity_type: 'User',
      entity_id: user.body.id,
      details: { ...target, add: 'email', custom_message: 'Email created', author_name: 'Mailer' },
    });
    expect(events.find((event) => event.event_name === 'email_destroyed')).toMatchObject({
      author_id: 1,
      details: { ...target, remove: 'email', custom_message: 'Email destroyed', author_name: 'Administrator' },
    });
  });

  it("records deploy keys added, enabled and removed as the project's audit events, and an instance key as the administrator's", async () => {
    const publicKey = () =>
      sshpk.parseKey(generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }), 'pem').toString('ssh');
    const app = await gateway.post('/api/v4/projects').set(asRoot).send({ name: 'keyed-app', path: 'keyed-app' });
    const docs = await gateway.post('/api/v4/projects').set(asRoot).send({ name: 'keyed-docs', path: 'keyed-docs' });
    const key = await gateway
      .post(`/api/v4/projects/${app.body.id}/deploy_keys`)
      .set(asRoot)
      .send({ title: 'ci', key: publicKey(), can_push: true });
    expect(key.status).toBe(201);
    expect((await gateway.post(`/api/v4/projects/${docs.body.id}/deploy_keys/${key.body.id}/enable`).set(asRoot)).status).toBe(201);
    expect((await gateway.delete(`/api/v4/projects/${docs.body.id}/deploy_keys/${key.body.id}`).set(asRoot)).status).toBe(204);
    const instanceKey = await gateway.post('/api/v4/deploy_keys').set(asRoot).send({ title: 'fleet', key: publicKey() });
    expect(instanceKey.status).toBe(201);

    const target = { target_id: key.body.id, target_type: 'DeployKey', target_details: 'ci' };
    const docsEvents = await auditEventsAt(`/api/v4/projects/${docs.body.id}/audit_events`, ['deploy_key_added', 'deploy_key_removed']);
    expect(docsEvents.filter((event) => event.event_name.startsWith('deploy_key_'))).toMatchObject([
      {
        event_name: 'deploy_key_removed',
        entity_type: 'Project',
        entity_id: docs.body.id,
        details: { ...target, remove: 'deploy_key', custom_message: 'Removed deploy key', entity_path: 'root/keyed-docs' },
      },
      { event_name: 'deploy_key_added', details: { ...target, add: 'deploy_key', custom_message: 'Added deploy key' } },
    ]);
    const appEvents = await auditEventsAt(`/api/v4/projects/${app.body.id}/audit_events`, ['deploy_key_added']);
    expect(appEvents.find((event) => event.event_name === 'deploy_key_added')).toMatchObject({
      author_id: 1,
      details: { ...target, entity_path: 'root/keyed-app', author_name: 'Administrator' },
    });
    const rootEvents = await auditEventsAt('/api/v4/audit_events?entity_type=User&entity_id=1&per_page=100', ['deploy_key_added']);
    expect(rootEvents.find((event) => event.event_name === 'deploy_key_added')).toMatchObject({
      details: { target_id: instanceKey.body.id, target_type: 'DeployKey', target_details: 'fleet', add: 'deploy_key' },
    });
  });

  it("records project and group CI/CD variables created, changed and deleted as the project's and group's audit events, never a value", async () => {
    const group = await gateway.post('/api/v4/groups').set(asRoot).send({ name: 'Vars', path: 'vars' });
    const project = await gateway
      .post('/api/v4/projects')
      .set(asRoot)
      .send({ name: 'vars-app', path: 'vars-app', namespace_id: group.body.id });
    expect([group.status, project.status]).toEqual([201, 201]);
    const variables = `/api/v4/projects/${project.body.id}/variables`;
    expect((await gateway.post(variables).set(asRoot).send({ key: 'DEPLOY_PASSWORD', value: 'first-secret-value' })).status).toBe(201);
    const changed = await gateway
      .put(`${variables}/DEPLOY_PASSWORD`)
      .set(asRoot)
      .send({ value: 'second-secret-value', protected: true, masked: true });
    expect(changed.status).toBe(200);
    expect((await gateway.delete(`${variables}/DEPLOY_PASSWORD`).set(asRoot)).status).toBe(204);
    expect(
      (
        await gateway
          .post(`/api/v4/groups/${group.body.id}/variables`)
          .set(asRoot)
          .send({ key: 'GROUP_TOKEN', value: 'group-secret-value' })
      ).status,
    ).toBe(201);

    const projectEvents = await auditEventsAt(`/api/v4/projects/${project.body.id}/audit_events`, [
      'ci_variable_created',
      'ci_variable_updated',
      'ci_variable_updated',
      'ci_variable_updated',
      'ci_variable_deleted',
    ]);
    const variableEvents = projectEvents.filter((event) => event.event_name.startsWith('ci_variable_'));
    expect(variableEvents.map((event) => [event.event_name, event.details.custom_message])).toEqual([
      ['ci_variable_deleted', 'Removed ci variable'],
      ['ci_variable_updated', 'Changed variable masking from false to true'],
      ['ci_variable_updated', 'Changed variable protection from false to true'],
      ['ci_variable_updated', 'Changed value(hidden)'],
      ['ci_variable_created', 'Added ci variable'],
    ]);
    for (const event of variableEvents) {
      expect(event).toMatchObject({
        entity_type: 'Project',
        entity_id: project.body.id,
        details: {
          target_type: 'Ci::Variable',
          target_details: 'DEPLOY_PASSWORD',
          entity_path: 'vars/vars-app',
          author_name: 'Administrator',
        },
      });
    }
    const groupEvents = await auditEventsAt(`/api/v4/groups/${group.body.id}/audit_events`, ['ci_group_variable_created']);
    expect(groupEvents.find((event) => event.event_name === 'ci_group_variable_created')).toMatchObject({
      entity_type: 'Group',
      entity_id: group.body.id,
      details: {
        add: 'ci_group_variable',
        custom_message: 'Added ci group variable',
        target_type: 'Ci::GroupVariable',
        entity_path: 'vars',
      },
    });
    expect(JSON.stringify([...projectEvents, ...groupEvents])).not.toMatch(/secret-value/);
  });

  it("records deploy tokens created and deleted as their project's or group's audit events", async () => {
    const group = await gateway.post('/api/v4/groups').set(asRoot).send({ name: 'Deploying', path: 'deploying', visibility: 'private' });
    expect(group.status).toBe(201);
    const project = await gateway
      .post('/api/v4/projects')
      .set(asRoot)
      .send({ name: 'shipped', path: 'shipped', namespace_id: group.body.id, visibility: 'private' });
    expect(project.status).toBe(201);
    const projectToken = await gateway
      .post(`/api/v4/projects/${project.body.id}/deploy_tokens`)
      .set(asRoot)
      .send({ name: 'ci', scopes: ['read_repository', 'read_registry'] });
    expect(projectToken.status).toBe(201);
    const groupToken = await gateway
      .post(`/api/v4/groups/${group.body.id}/deploy_tokens`)
      .set(asRoot)
      .send({ name: 'registry', scopes: ['read_package_registry'] });
    expect(groupToken.status).toBe(201);
    expect((await gateway.delete(`/api/v4/projects/${project.body.id}/deploy_tokens/${projectToken.body.id}`).set(asRoot)).status).toBe(
      204,
    );

    const projectEvents = await auditEventsAt(`/api/v4/projects/${project.body.id}/audit_events`, [
      'deploy_token_created',
      'deploy_token_destroyed',
    ]);
    const deployTokenEvents = projectEvents.filter((event) => event.event_name.startsWith('deploy_token_'));
    const message = (verb: string) =>
      `${verb} project deploy token with name: ci with token_id: ${projectToken.body.id} with scopes: [:read_repository, :read_registry].`;
    expect(deployTokenEvents.map((event) => [event.event_name, event.details.custom_message])).toEqual([
      ['deploy_token_destroyed', message('Destroyed')],
      ['deploy_token_created', message('Created')],
    ]);
    for (const event of deployTokenEvents) {
      expect(event).toMatchObject({
        author_id: 1,
        entity_type: 'Project',
        entity_id: project.body.id,
        details: { target_id: projectToken.body.id, target_type: 'DeployToken', target_details: 'ci', entity_path: 'deploying/shipped' },
      });
    }
    const groupEvents = await auditEventsAt(`/api/v4/groups/${group.body.id}/audit_events`, ['deploy_token_created']);
    expect(groupEvents.find((event) => event.event_name === 'deploy_token_created')).toMatchObject({
      entity_type: 'Group',
      entity_id: group.body.id,
      details: {
        custom_message: `Created group deploy token with name: registry with token_id: ${groupToken.body.id} with scopes: [:read_package_registry].`,
        entity_path: 'deploying',
      },
    });
    expect(JSON.stringify([...projectEvents, ...groupEvents])).not.toContain(projectToken.body.token);
  });
});
