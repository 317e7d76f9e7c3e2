/**
 * The application settings identity acts on (here fixed by the test, as the admin service would
 * have them): SSH key type restrictions, default visibilities of new groups and projects, and
 * the projects limit of new users, visibilities only administrators may choose, and the delay
 * before a deleted project is gone (`deletion_adjourned_period`).
 */
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import sshpk from 'sshpk';
import { FixedApplicationSettings } from '@platform/admin-client';
import { adminCaller, callerHeader, userCaller, waitFor } from '@platform/testing';
import { startIdentityHarness, type IdentityHarness } from './testing/identity-harness.ts';

const settings = new FixedApplicationSettings();
const admin = callerHeader(adminCaller());
let harness: IdentityHarness;
let asOwner: Record<string, string>;

function publicKeyLine(key: { type: 'rsa'; modulusLength: number } | { type: 'ed25519' }): string {
  const { publicKey } =
    key.type === 'rsa' ? generateKeyPairSync('rsa', { modulusLength: key.modulusLength }) : generateKeyPairSync('ed25519');
  return sshpk.parseKey(publicKey.export({ type: 'spki', format: 'pem' }), 'pem').toString('ssh');
}

beforeAll(async () => {
  // Adjourned deletions are looked for often, so that one comes due within the test.
  harness = await startIdentityHarness('application_settings', { PROJECT_DELETION_INTERVAL_MS: '200' }, { applicationSettings: settings });
  const owner = await harness.createUser('settings-owner');
  asOwner = callerHeader(userCaller(owner.id, owner.username));
});

afterAll(async () => {
  await harness?.stop();
});

describe('SSH key restrictions', () => {
  it('refuses a forbidden key type and a key below the minimum size, with GitLab messages', async () => {
    settings.set({ ed25519KeyRestriction: -1, rsaKeyRestriction: 3072 });
    const forbidden = await harness.api
      .post('/api/v4/user/keys')
      .set(asOwner)
      .send({ title: 'ed', key: publicKeyLine({ type: 'ed25519' }) });
    expect(forbidden.status).toBe(400);
    expect(forbidden.body).toEqual({ message: { key: ['type is forbidden. Must be RSA, DSA, or ECDSA'] } });
    const small = await harness.api
      .post('/api/v4/user/keys')
      .set(asOwner)
      .send({ title: 'small', key: publicKeyLine({ type: 'rsa', modulusLength: 2048 }) });
    expect(small.status).toBe(400);
    expect(small.body).toEqual({ message: { key: ['must be at least 3072 bits'] } });
    const large = await harness.api
      .post('/api/v4/user/keys')
      .set(asOwner)
      .send({ title: 'large', key: publicKeyLine({ type: 'rsa', modulusLength: 3072 }) });
    expect(large.status).toBe(201);
  });

  it('accepts the type again once the restriction is lifted', async () => {
    settings.set({ ed25519KeyRestriction: 0 });
    const response = await harness.api
      .post('/api/v4/user/keys')
      .set(asOwner)
      .send({ title: 'ed again', key: publicKeyLine({ type: 'ed25519' }) });
    expect(response.status).toBe(201);
  });
});

describe('defaults of new groups, projects and users', () => {
  it('gives new groups and projects the default visibilities, lowered to what their parent allows', async () => {
    settings.set({ defaultGroupVisibility: 'internal', defaultProjectVisibility: 'public' });
    const group = await harness.api.post('/api/v4/groups').set(admin).send({ name: 'Defaults', path: 'defaults' });
    expect(group.status).toBe(201);
    expect(group.body.visibility).toBe('internal');
    const inGroup = await harness.api.post('/api/v4/projects').set(admin).send({ name: 'In group', namespace_id: group.body.id });
    expect(inGroup.body.visibility).toBe('internal');
    const personal = await harness.api.post('/api/v4/projects').set(asOwner).send({ name: 'Personal' });
    expect(personal.body.visibility).toBe('public');
    const explicit = await harness.api.post('/api/v4/projects').set(asOwner).send({ name: 'Explicit', visibility: 'private' });
    expect(explicit.body.visibility).toBe('private');
  });

  it('gives new users the default projects limit unless one is given', async () => {
    settings.set({ defaultProjectsLimit: 3 });
    expect((await harness.createUser('limited')).projects_limit).toBe(3);
    expect((await harness.createUser('unlimited', { projects_limit: 50 })).projects_limit).toBe(50);
    expect((await harness.createUser('outsider', { external: true })).projects_limit).toBe(0);
  });
});

describe('restricted visibility levels', () => {
  it('refuses a restricted visibility to users, not to administrators', async () => {
    settings.set({ restrictedVisibilityLevels: ['public'] });
    const refused = await harness.api.post('/api/v4/projects').set(asOwner).send({ name: 'Shown', visibility: 'public' });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: { visibility_level: ['public has been restricted by your GitLab administrator'] } });
    const group = await harness.api.post('/api/v4/groups').set(admin).send({ name: 'Open', path: 'open', visibility: 'public' });
    expect(group.status).toBe(201);
    const project = await harness.api.post('/api/v4/projects').set(asOwner).send({ name: 'Hidden', visibility: 'private' });
    const update = await harness.api.put(`/api/v4/projects/${project.body.id}`).set(asOwner).send({ visibility: 'public' });
    expect(update.status).toBe(400);
    settings.set({ restrictedVisibilityLevels: [] });
  });
});

describe('deletion_adjourned_period', () => {
  async function createProject(path: string): Promise<number> {
    const created = await harness.api.post('/api/v4/projects').set(asOwner).send({ name: path, path });
    expect(created.status).toBe(201);
    return created.body.id as number;
  }

  it('deletes a project at once when 0', async () => {
    settings.set({ deletionAdjournedPeriod: 0 });
    const id = await createProject('gone-at-once');
    const deleted = await harness.api.delete(`/api/v4/projects/${id}`).set(asOwner);
    expect(deleted.status).toBe(202);
    expect(deleted.body).toEqual({ message: '202 Accepted' });
    expect((await harness.api.get(`/api/v4/projects/${id}`).set(asOwner)).status).toBe(404);
  });

  it('marks a project for deletion, which restore undoes, and deletes it once the period passed', async () => {
    settings.set({ deletionAdjournedPeriod: 3 });
    try {
      const id = await createProject('adjourned');
      const marked = await harness.api.delete(`/api/v4/projects/${id}`).set(asOwner);
      expect(marked.status).toBe(202);
      expect(marked.body).toEqual({ message: '202 Accepted' });
      const today = new Date().toISOString().slice(0, 10);
      const shown = await harness.api.get(`/api/v4/projects/${id}`).set(asOwner);
      expect(shown.body).toMatchObject({ marked_for_deletion_at: today, marked_for_deletion_on: today });
      const again = await harness.api.delete(`/api/v4/projects/${id}`).set(asOwner);
      expect(again.status).toBe(400);
      expect(again.body).toEqual({ message: 'Project has been already marked for deletion' });

      const restored = await harness.api.post(`/api/v4/projects/${id}/restore`).set(asOwner);
      expect(restored.status).toBe(201);
      expect(restored.body).toMatchObject({ id, marked_for_deletion_at: null, marked_for_deletion_on: null });

      expect((await harness.api.delete(`/api/v4/projects/${id}`).set(asOwner)).status).toBe(202);
      // Not due yet: the project stays.
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect((await harness.api.get(`/api/v4/projects/${id}`).set(asOwner)).status).toBe(200);
      await harness.sql("update projects set marked_for_deletion_at = now() - interval '3 days 1 minute' where id = $1", [id]);
      await waitFor(async () => ((await harness.api.get(`/api/v4/projects/${id}`).set(asOwner)).status === 404 ? true : undefined));
      const [deletedEvent] = (await harness.outboxEvents('identity.project.deleted')).filter(
        (event) => (event.data.project as { id: number } | undefined)?.id === id,
      );
      expect(deletedEvent?.actor).toMatchObject({ username: 'settings-owner' });
    } finally {
      settings.set({ deletionAdjournedPeriod: 0 });
    }
  });

  it('deletes a marked project at once with permanently_remove and its full path', async () => {
    settings.set({ deletionAdjournedPeriod: 7 });
    try {
      const id = await createProject('permanent');
      expect((await harness.api.delete(`/api/v4/projects/${id}`).set(asOwner)).status).toBe(202);
      const wrongPath = await harness.api
        .delete(`/api/v4/projects/${id}?permanently_remove=true&full_path=elsewhere/permanent`)
        .set(asOwner);
      expect(wrongPath.status).toBe(400);
      expect(wrongPath.body).toEqual({ message: '`full_path` is incorrect. You must enter the complete path for the project.' });
      const removed = await harness.api
        .delete(`/api/v4/projects/${id}`)
        .query({ permanently_remove: true, full_path: 'settings-owner/permanent' })
        .set(asOwner);
      expect(removed.status).toBe(202);
      expect((await harness.api.get(`/api/v4/projects/${id}`).set(asOwner)).status).toBe(404);
    } finally {
      settings.set({ deletionAdjournedPeriod: 0 });
    }
  });
});
