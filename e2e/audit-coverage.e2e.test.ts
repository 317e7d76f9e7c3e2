/**
 * Security-relevant changes in identity and review reach audit through Kafka as audit events at
 * the right level, through the real gateway: personal access tokens issued, rotated and revoked
 * (the owner's), and branches protected, changed and unprotected (the project's), the default
 * branch's protection on a first push included.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
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
  platform = await startTestPlatform({ services: ['identity', 'review', 'audit'] });
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
});
