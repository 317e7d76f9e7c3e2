/** Keyset pagination of the group and project lists: by id after a cursor, a next link, no totals. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { adminCaller, callerHeader } from '@platform/testing';
import { startIdentityHarness, type IdentityHarness } from '../../testing/identity-harness.ts';

let harness: IdentityHarness;
const admin = callerHeader(adminCaller());
const groupIds: number[] = [];
const projectIds: number[] = [];

beforeAll(async () => {
  harness = await startIdentityHarness('keyset_lists');
  for (const name of ['keyset-a', 'keyset-b', 'keyset-c']) {
    const group = await harness.api.post('/api/v4/groups').set(admin).send({ name, path: name });
    groupIds.push(group.body.id);
    const project = await harness.api.post('/api/v4/projects').set(admin).send({ name, namespace_id: group.body.id });
    projectIds.push(project.body.id);
  }
});

afterAll(async () => {
  await harness?.stop();
});

async function allPages(first: string): Promise<number[]> {
  const seen: number[] = [];
  for (let next: string | undefined = first; next; ) {
    const response: { status: number; headers: Record<string, string>; body: Array<{ id: number }> } = await harness.api
      .get(next)
      .set(admin);
    expect(response.status).toBe(200);
    expect(response.headers['x-total']).toBeUndefined();
    seen.push(...response.body.map((item) => item.id));
    const link: string | undefined = /<([^>]+)>; rel="next"/.exec(response.headers.link ?? '')?.[1];
    next = link ? `${new URL(link).pathname}${new URL(link).search}` : undefined;
  }
  return seen;
}

describe('keyset pagination', () => {
  it('walks the groups by id', async () => {
    expect(await allPages('/api/v4/groups?pagination=keyset&order_by=id&sort=asc&per_page=2&search=keyset-')).toEqual(groupIds);
  });

  it('walks the projects by id, newest first by default', async () => {
    expect(await allPages('/api/v4/projects?pagination=keyset&order_by=id&per_page=2&search=keyset-')).toEqual([...projectIds].reverse());
  });

  it('answers 400 naming a bad order or cursor', async () => {
    const bad = async (query: string) => (await harness.api.get(query).set(admin)).body;
    expect(await bad('/api/v4/groups?pagination=keyset&order_by=name')).toEqual({ error: 'order_by does not have a valid value' });
    expect(await bad('/api/v4/projects?pagination=keyset&cursor=x')).toEqual({ error: 'cursor is invalid' });
    expect(await bad('/api/v4/projects?pagination=pages')).toEqual({ error: 'pagination does not have a valid value' });
  });
});
