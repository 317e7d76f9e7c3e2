/**
 * Generated worlds for the access rules' tests: trees of groups, projects, memberships (some
 * expired or pending) and shares (some expired), written straight into the tables as the API
 * would have left them, and described back for a plain reading of the rules.
 */
import type { IdentityHarness } from './identity-harness.ts';

export interface Group {
  id: number;
  traversalIds: number[];
  visibility: string;
}
export interface Project {
  id: number;
  namespaceId: number;
  visibility: string;
}
export interface Membership {
  sourceType: 'Group' | 'Project';
  sourceId: number;
  userId: number;
  level: number;
  active: boolean;
}
export interface Share {
  targetId: number;
  groupId: number;
  level: number;
  active: boolean;
}
export interface World {
  users: Array<{ id: number; external: boolean; personalNamespaceId: number }>;
  groups: Group[];
  projects: Project[];
  memberships: Membership[];
  groupShares: Share[];
  projectShares: Share[];
}

/** Deterministic pseudo-random numbers (mulberry32), so a failure names a seed that reproduces it. */
function randomFrom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const VISIBILITIES = ['private', 'internal', 'public'];
export const LEVELS = [10, 20, 30, 40, 50];

/** Writes a generated world straight into the tables, as the API would have left them. */
export async function generateWorld(kit: IdentityHarness, options: { seed: number; prefix: string }): Promise<World> {
  const { seed, prefix } = options;
  const random = randomFrom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const users: World['users'] = [];
  for (let index = 0; index < 4; index += 1) {
    const external = index === 3;
    const user = await kit.createUser(`${prefix}u${index}`, { external });
    const [namespace] = await kit.sql<{ id: number }>("select id from namespaces where owner_id = $1 and kind = 'user'", [user.id]);
    users.push({ id: user.id, external, personalNamespaceId: namespace!.id });
  }
  const groups: Group[] = [];
  for (let index = 0; index < 14; index += 1) {
    // Never more visible than the parent, as the API enforces.
    const parent = index < 4 ? undefined : pick(groups.filter((group) => group.traversalIds.length < 3));
    const allowed = VISIBILITIES.slice(0, parent ? VISIBILITIES.indexOf(parent.visibility) + 1 : 3);
    const visibility = pick(allowed);
    const [row] = await kit.sql<{ id: number; traversal_ids: number[] }>(
      `with next as (select nextval('namespaces_id_seq')::int as id)
       insert into namespaces (id, kind, name, path, full_path, parent_id, traversal_ids, visibility)
       select id, 'group', $1, $1, $2 || $1, $3::int, $4::int[] || id, $5 from next returning id, traversal_ids`,
      [`${prefix}g${index}`, parent ? `${parent.id}/` : '', parent?.id ?? null, parent?.traversalIds ?? [], visibility],
    );
    groups.push({ id: row!.id, traversalIds: row!.traversal_ids, visibility });
  }
  const projects: Project[] = [];
  for (let index = 0; index < 18; index += 1) {
    const inGroup = random() < 0.8;
    const namespace = inGroup ? pick(groups) : undefined;
    const namespaceId = namespace?.id ?? pick(users).personalNamespaceId;
    const visibility = pick(VISIBILITIES.slice(0, namespace ? VISIBILITIES.indexOf(namespace.visibility) + 1 : 3));
    const [row] = await kit.sql<{ id: number }>(
      'insert into projects (namespace_id, name, path, visibility) values ($1, $2, $2, $3) returning id',
      [namespaceId, `${prefix}p${index}`, visibility],
    );
    projects.push({ id: row!.id, namespaceId, visibility });
  }
  const memberships: Membership[] = [];
  for (const user of users) {
    for (const [sourceType, sources] of [
      ['Group', groups],
      ['Project', projects],
    ] as const) {
      for (const source of sources) {
        if (random() > 0.18) continue;
        const state = pick(['active', 'active', 'active', 'expired', 'pending'] as const);
        const level = sourceType === 'Project' ? pick(LEVELS.slice(0, 4)) : pick(LEVELS);
        await kit.sql(
          `insert into members (source_type, source_id, user_id, access_level, expires_at, requested_at)
           values ($1, $2, $3, $4, $5, $6)`,
          [
            sourceType,
            source.id,
            user.id,
            level,
            state === 'expired' ? '2000-01-01' : state === 'active' && random() < 0.3 ? '2999-01-01' : null,
            state === 'pending' ? new Date() : null,
          ],
        );
        memberships.push({ sourceType, sourceId: source.id, userId: user.id, level, active: state === 'active' });
      }
    }
  }
  const groupShares: Share[] = [];
  const projectShares: Share[] = [];
  for (let index = 0; index < 8; index += 1) {
    const target = pick(groups);
    const group = pick(groups);
    if (target.id === group.id || groupShares.some((share) => share.targetId === target.id && share.groupId === group.id)) continue;
    const share = { targetId: target.id, groupId: group.id, level: pick(LEVELS), active: random() < 0.8 };
    await kit.sql(
      'insert into group_group_links (shared_group_id, shared_with_group_id, group_access, expires_at) values ($1, $2, $3, $4)',
      [share.targetId, share.groupId, share.level, share.active ? null : '2000-01-01'],
    );
    groupShares.push(share);
  }
  for (let index = 0; index < 8; index += 1) {
    const target = pick(projects);
    const group = pick(groups);
    if (projectShares.some((share) => share.targetId === target.id && share.groupId === group.id)) continue;
    const share = { targetId: target.id, groupId: group.id, level: pick(LEVELS.slice(0, 4)), active: random() < 0.8 };
    await kit.sql('insert into project_group_links (project_id, group_id, group_access, expires_at) values ($1, $2, $3, $4)', [
      share.targetId,
      share.groupId,
      share.level,
      share.active ? null : '2000-01-01',
    ]);
    projectShares.push(share);
  }
  return { users, groups, projects, memberships, groupShares, projectShares };
}
