/**
 * Administration through the gateway with the clients people use (@gitbeaker/rest): application
 * settings changed by an administrator take effect in identity within seconds (the settings event
 * on Kafka), every change is an instance-level audit event, and instance CI/CD variables.
 */
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Gitlab } from '@gitbeaker/rest';
import sshpk from 'sshpk';
import request from 'supertest';
import type { RunningPlatform } from '@platform/devstack';
import { waitFor } from '@platform/testing';
import { E2E_ROOT_TOKEN, startTestPlatform } from './harness.ts';

let platform: RunningPlatform;
let gateway: ReturnType<typeof request>;
let gitlab: InstanceType<typeof Gitlab>;
const asRoot = { 'PRIVATE-TOKEN': E2E_ROOT_TOKEN };

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['admin', 'audit'] });
  gateway = request(platform.url);
  gitlab = new Gitlab({ host: platform.url, token: E2E_ROOT_TOKEN });
}, 180_000);

afterAll(async () => {
  await platform?.stop();
});

const ed25519Key = () =>
  sshpk.parseKey(generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }), 'pem').toString('ssh');

describe('application settings', () => {
  it('are read and changed with @gitbeaker/rest', async () => {
    const settings = await gitlab.ApplicationSettings.show();
    expect(settings).toMatchObject({ id: 1, default_projects_limit: 100_000, signup_enabled: true });
    const changed = await gitlab.ApplicationSettings.edit({ defaultProjectsLimit: 7, defaultGroupVisibility: 'internal' });
    expect(changed).toMatchObject({ default_projects_limit: 7, default_group_visibility: 'internal' });
  });

  it('take effect in identity within seconds: a forbidden key type is refused, then accepted again', async () => {
    expect((await gateway.put('/api/v4/application/settings?ed25519_key_restriction=-1').set(asRoot)).status).toBe(200);
    const started = Date.now();
    await waitFor(
      async () =>
        (await gateway.post('/api/v4/user/keys').set(asRoot).send({ title: 'ed', key: ed25519Key() })).status === 400 || undefined,
      { timeoutMs: 5000 },
    );
    const refused = await gateway.post('/api/v4/user/keys').set(asRoot).send({ title: 'ed', key: ed25519Key() });
    expect(refused.body).toEqual({ message: { key: ['type is forbidden. Must be RSA, DSA, or ECDSA'] } });
    process.stdout.write(`settings change seen by identity after ${Date.now() - started} ms\n`);

    expect((await gateway.put('/api/v4/application/settings').set(asRoot).send({ ed25519_key_restriction: 0 })).status).toBe(200);
    await waitFor(
      async () =>
        (await gateway.post('/api/v4/user/keys').set(asRoot).send({ title: 'ed', key: ed25519Key() })).status === 201 || undefined,
      { timeoutMs: 5000 },
    );
  });

  it('apply to what identity creates next: default visibility and projects limit', async () => {
    await waitFor(
      async () => {
        const group = await gateway
          .post('/api/v4/groups')
          .set(asRoot)
          .send({ name: `Defaults ${Date.now()}`, path: `defaults-${Date.now()}` });
        return (group.status === 201 && group.body.visibility === 'internal') || undefined;
      },
      { timeoutMs: 5000 },
    );
    const user = await gateway
      .post('/api/v4/users')
      .set(asRoot)
      .send({ email: 'limited@example.com', name: 'Limited', username: 'limited', password: 'a-long-enough-password' });
    expect(user.body.projects_limit).toBe(7);
  });

  it('are audited as the administrator, one event per changed setting with change, from and to', async () => {
    await waitFor(
      async () => {
        const events = await gateway.get('/api/v4/audit_events?entity_type=User&entity_id=1&per_page=100').set(asRoot);
        return (
          events.body.some((event: { details: { change?: string } }) => event.details.change === 'default_projects_limit') || undefined
        );
      },
      { timeoutMs: 10_000 },
    );
    const events = await gateway.get('/api/v4/audit_events?entity_type=User&entity_id=1&per_page=100').set(asRoot);
    const limit = events.body.find((event: { details: { change?: string } }) => event.details.change === 'default_projects_limit');
    expect(limit).toMatchObject({
      author_id: 1,
      entity_type: 'User',
      entity_id: 1,
      details: {
        change: 'default_projects_limit',
        from: '100000',
        to: '7',
        target_type: 'ApplicationSetting',
        author_name: 'Administrator',
      },
    });
  });
});

describe('instance CI/CD variables', () => {
  it('are created, read and changed with @gitbeaker/rest, removed, and audited', async () => {
    const created = await gitlab.InstanceLevelCICDVariables.create('DEPLOY_TOKEN', 'a-masked-value', { masked: true, protected: true });
    expect(created).toMatchObject({
      key: 'DEPLOY_TOKEN',
      value: 'a-masked-value',
      masked: true,
      protected: true,
      variable_type: 'env_var',
    });
    expect(await gitlab.InstanceLevelCICDVariables.all()).toHaveLength(1);
    const edited = await gitlab.InstanceLevelCICDVariables.edit('DEPLOY_TOKEN', 'another-masked-value', { protected: false });
    expect(edited).toMatchObject({ value: 'another-masked-value', protected: false });
    await expect(gitlab.InstanceLevelCICDVariables.create('BAD', 'short', { masked: true })).rejects.toThrow();
    // @gitbeaker/rest 43's `remove` sends a GET, so the deletion goes as GitLab documents it.
    expect((await gateway.delete('/api/v4/admin/ci/variables/DEPLOY_TOKEN').set(asRoot)).status).toBe(204);
    expect((await gateway.get('/api/v4/admin/ci/variables/DEPLOY_TOKEN').set(asRoot)).status).toBe(404);
    await waitFor(
      async () => {
        const events = await gateway.get('/api/v4/audit_events?entity_type=User&entity_id=1&per_page=100').set(asRoot);
        return (
          events.body.some(
            (event: { details: { target_type?: string; remove?: string } }) =>
              event.details.target_type === 'Ci::InstanceVariable' && event.details.remove === 'ci_instance_variable',
          ) || undefined
        );
      },
      { timeoutMs: 10_000 },
    );
  });
});
