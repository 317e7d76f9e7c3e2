/**
 * A new project's repository is created by review as identity answers (review's answers come from
 * a fixed client here): administrators see the storage it is really on.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { FixedReviewRepositories } from '@platform/review-client';
import { adminCaller } from '@platform/testing';
import { startIdentityHarness, type IdentityHarness } from '../../testing/identity-harness.ts';

let kit: IdentityHarness;

beforeAll(async () => {
  kit = await startIdentityHarness(
    'project_repository_storage',
    {},
    { repositories: new FixedReviewRepositories({ createdOn: 'second' }) },
  );
});

afterAll(() => kit?.stop());

it('answers the storage review created the repository on, and keeps it', async () => {
  const created = await kit.api.post('/api/v4/projects').set(kit.as(adminCaller())).send({ name: 'Stored' });
  expect(created.status).toBe(201);
  expect(created.body.repository_storage).toBe('second');
  const read = await kit.api.get(`/api/v4/projects/${created.body.id}`).set(kit.as(adminCaller()));
  expect(read.body.repository_storage).toBe('second');
});
