/**
 * Seeds identity's database for the benchmark with SQL bulk inserts (generate_series), keeping
 * the invariants the services rely on: every user gets the personal namespace the users trigger
 * would make, groups nest three deep with `traversal_ids` and `full_path` built from their
 * parents, a subgroup or project is never more visible than its namespace, every group has an
 * Owner and every personal project its owner as members, and tokens are stored as digests.
 *
 * Loaded in bulk, so a million rows take minutes rather than hours: inside the transaction the
 * users trigger is disabled and the namespaces it would make are inserted in one statement; the
 * triggers that keep `project_authorizations` are disabled too, and the table is filled once
 * after the load by the function they call, for every user with a membership (as the migration
 * that created it does), instead of recomputing users and projects statement after statement;
 * and the seeded tables' non-unique indexes are dropped and re-created from their own definitions
 * after the load (unique ones stay: they keep the rows and `on conflict` exact).
 *
 * Idempotent: the whole seed is one transaction, and a database that already holds the seeded
 * users is left as it is (only the benchmark caller's token is replaced, since only its digest is
 * kept). Run on its own: `node bench/seed.ts <identity database url> [rows]`.
 */
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';

export interface SeedSize {
  users: number;
  groups: number;
  projects: number;
  /** Group memberships per group beyond its Owner. */
  membersPerGroup: number;
  /** Project memberships per project beyond a personal project's owner. */
  membersPerProject: number;
}

/** At least 10,000 users, 2,000 groups three deep, 10,000 projects and 50,000 memberships. */
export const STANDARD_SIZE: SeedSize = { users: 10_000, groups: 2_000, projects: 10_000, membersPerGroup: 15, membersPerProject: 2 };

/** `rows` users and `rows` projects (groups and memberships as standard), for comparing a list at 1,000 and 1,000,000 rows. */
export function largeSize(rows: number): SeedSize {
  return { ...STANDARD_SIZE, users: rows, projects: rows };
}

export interface SeededData {
  counts: { users: number; groups: number; projects: number; memberships: number };
  /** A non-administrator with memberships of groups and projects, and an `api` token. */
  member: { id: number; username: string; name: string; token: string };
  /** A top-level group, a third-level group and a project the member can see, and another user. */
  sample: { groupId: number; nestedGroupId: number; projectId: number; userId: number };
}

const VISIBILITY = `(array['private','internal','public'])`;

export async function seed(databaseUrl: string, size: SeedSize = STANDARD_SIZE): Promise<SeededData> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('begin');
    const existing = await client.query<{ count: string }>("select count(*) from users where username like 'seed-user-%'");
    const seeded = Number(existing.rows[0]?.count ?? 0);
    if (seeded !== 0 && seeded !== size.users) {
      throw new Error(`the database holds ${seeded} seeded users, not ${size.users}: seed a fresh database for another size`);
    }
    if (seeded === 0) {
      await withAuthorizationTriggersDisabled(client, () =>
        withIndexesBuiltAfter(client, SEEDED_TABLES, () => insertEverything(client, size)),
      );
      await withIndexesBuiltAfter(client, ['project_authorizations'], () => fillProjectAuthorizations(client), { keys: true });
      await withIndexesBuiltAfter(client, ['group_relations'], () => fillGroupRelations(client), { keys: true });
    }
    const member = await memberWithToken(client);
    await client.query('commit');
    // Vacuum as well as analyze: where autovacuum is off or behind, the bulk load leaves the GIN
    // indexes (`traversal_ids`, trigram search) with long pending lists that every lookup scans.
    await client.query('vacuum analyze');
    return { counts: await countsOf(client), member, sample: await sampleOf(client, member.id) };
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}

const SEEDED_TABLES = ['users', 'namespaces', 'projects', 'members', 'project_stars', 'project_group_links', 'group_group_links'];

/**
 * Runs `load` with the statement-level triggers that keep `project_authorizations` and
 * `group_relations` disabled, so that no statement of the load recomputes the users, projects
 * and groups it reaches; both are filled once after it.
 */
async function withAuthorizationTriggersDisabled(client: pg.Client, load: () => Promise<void>): Promise<void> {
  const { rows: triggers } = await client.query<{ relation: string; name: string }>(
    `select t.tgrelid::regclass::text as relation, t.tgname as name
     from pg_trigger t join pg_proc f on f.oid = t.tgfoid
     where not t.tgisinternal and f.proname ~ '_refresh_(project_authorizations|group_relations)$'`,
  );
  if (triggers.length === 0) throw new Error('the triggers that keep project_authorizations are missing: is the database migrated?');
  for (const { relation, name } of triggers) await client.query(`alter table ${relation} disable trigger ${name}`);
  await load();
  for (const { relation, name } of triggers) await client.query(`alter table ${relation} enable trigger ${name}`);
}

/**
 * Fills `project_authorizations` once, as the migration that created it does: the function its
 * triggers call, for every user with a membership, so each row is written once (tens of millions
 * at a million projects). The loaded tables are analyzed first, so that its joins are planned
 * for their sizes, and its grouping gets the memory to stay off the disk.
 */
async function fillProjectAuthorizations(client: pg.Client): Promise<void> {
  await client.query(`analyze ${SEEDED_TABLES.join(', ')}`);
  await client.query("set local work_mem = '256MB'");
  await client.query('select refresh_project_authorizations(array(select distinct user_id from members), null)');
}

/** Fills `group_relations` once, as the migration that created it does, for every user with a membership. */
async function fillGroupRelations(client: pg.Client): Promise<void> {
  await client.query('select refresh_group_relations(array(select distinct user_id from members))');
}

/**
 * Runs `load` without the non-unique indexes of `tables` (trigram, GIN and ordering indexes,
 * maintained row by row otherwise), then re-creates them exactly as the migrations defined them.
 * With `keys`, the tables' primary keys, unique constraints and foreign keys go too and are added
 * back after (a key sorted once instead of inserted into row by row, a foreign key checked by one
 * join instead of a lookup per row): only for a load that writes distinct keys without
 * `on conflict`, into tables no foreign key references.
 */
async function withIndexesBuiltAfter(
  client: pg.Client,
  tables: string[],
  load: () => Promise<void>,
  options: { keys?: boolean } = {},
): Promise<void> {
  const { rows: keys } = options.keys
    ? await client.query<{ relation: string; name: string; definition: string }>(
        `select conrelid::regclass::text as relation, conname as name, pg_get_constraintdef(oid) as definition
         from pg_constraint where conrelid = any($1::regclass[]) and contype in ('p', 'u', 'f')
         order by contype = 'f'`,
        [tables],
      )
    : { rows: [] };
  for (const { relation, name } of keys) await client.query(`alter table ${relation} drop constraint ${name}`);
  const { rows: indexes } = await client.query<{ name: string; definition: string }>(
    `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as definition
     from pg_index i
     where i.indrelid = any($1::regclass[]) and not i.indisunique
       and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`,
    [tables],
  );
  for (const { name } of indexes) await client.query(`drop index ${name}`);
  await load();
  await client.query("set local maintenance_work_mem = '512MB'");
  for (const { relation, name, definition } of keys) await client.query(`alter table ${relation} add constraint ${name} ${definition}`);
  for (const { definition } of indexes) await client.query(definition);
}

async function insertEverything(client: pg.Client, size: SeedSize): Promise<void> {
  const top = Math.round(size.groups * 0.2);
  const middle = Math.round(size.groups * 0.4);
  const leaves = size.groups - top - middle;
  const run = (text: string, values: unknown[] = []) => client.query(text, values);

  // Every user gets the personal namespace that the users trigger (`create_user_namespace`) would
  // make, inserted in one statement instead of one trigger call per row.
  await run('alter table users disable trigger users_create_namespace');
  await run(
    `with made as (
       insert into users (username, email, name, confirmed_at, created_at, updated_at, last_activity_on, bio, bio_html, location)
       select 'seed-user-' || i, 'seed-user-' || i || '@example.com', 'Seed User ' || i, now(),
              now() - make_interval(secs => i), now() - make_interval(secs => i), current_date,
              'Works on things ' || i, '<p>Works on things ' || i || '</p>', 'City ' || (i % 100)
       from generate_series(1, $1::int) i
       returning id, username, name)
     insert into namespaces (id, kind, name, path, full_path, traversal_ids, owner_id, visibility)
     select namespace_id, 'user', name, username, username, array[namespace_id], id, 'public'
     from (select nextval('namespaces_id_seq')::int as namespace_id, made.* from made order by id) ordered`,
    [size.users],
  );
  await run('alter table users enable trigger users_create_namespace');
  await run(`create temporary table seed_users on commit drop as
    select row_number() over (order by u.id)::int as n, u.id, n.id as namespace_id
    from users u join namespaces n on n.owner_id = u.id and n.kind = 'user'
    where u.username like 'seed-user-%'`);
  await run('create unique index on seed_users (n)');

  // Groups: `top` top-level groups, two children under half of them... three levels in all.
  await run(`create temporary table seed_groups (n int primary key, id int, level int, parent_n int) on commit drop`);
  await run(
    `with made as (
       insert into namespaces (id, kind, name, path, full_path, traversal_ids, visibility, description, runners_token)
       select id, 'group', 'Seed Group ' || i, 'seed-group-' || i, 'seed-group-' || i, array[id],
              ${VISIBILITY}[1 + i % 3], 'A seeded top-level group', 'GR1348941seed' || i
       from (select nextval('namespaces_id_seq')::int as id, i from generate_series(1, $1::int) i) s
       returning id, traversal_ids)
     insert into seed_groups select row_number() over (order by id), id, 1, null from made`,
    [top],
  );
  for (const [level, count, offset] of [
    [2, middle, top],
    [3, leaves, top + middle],
  ] as const) {
    const parents = level === 2 ? top : middle;
    const parentOffset = level === 2 ? 0 : top;
    await run(
      `with planned as (
         select nextval('namespaces_id_seq')::int as id, i, $2::int + 1 + (i - 1) % $3::int as parent_n
         from generate_series(1, $1::int) i),
       made as (
         insert into namespaces (id, kind, name, path, full_path, parent_id, traversal_ids, visibility, description, runners_token)
         select p.id, 'group', 'Seed Level ${level} ' || p.i, 'level-${level}-' || p.i, n.full_path || '/level-${level}-' || p.i,
                n.id, n.traversal_ids || p.id,
                case when p.i % 4 = 0 then 'private' else n.visibility end,
                'A seeded subgroup', 'GR1348941seed${level}x' || p.i
         from planned p join seed_groups g on g.n = p.parent_n join namespaces n on n.id = g.id
         returning id)
       insert into seed_groups select $4::int + row_number() over (order by id), id, ${level}, null from made`,
      [count, parentOffset, parents, offset],
    );
  }

  // Every group has an Owner, as creating one through the API makes its creator one (and the
  // creator of the group's seeded projects).
  await run(
    `insert into members (source_type, source_id, user_id, access_level, created_by)
     select 'Group', g.id, u.id, 50, u.id from seed_groups g join seed_users u on u.n = 1 + (g.n * 37) % $1::int`,
    [size.users],
  );
  // Members of every level, so access is inherited down the tree and shared across it.
  await run(
    `insert into members (source_type, source_id, user_id, access_level, expires_at, created_by)
     select 'Group', g.id, u.id, (array[10,20,30,40,50])[1 + (g.n + s) % 5],
            case when s % 7 = 0 then current_date + 30 end, null
     from seed_groups g cross join generate_series(1, $2::int) s
     join seed_users u on u.n = 1 + (g.n * 131 + s * 7919) % $1::int
     on conflict do nothing`,
    [size.users, size.membersPerGroup],
  );

  // Projects: four in five in groups, the rest in their owners' personal namespaces.
  const inGroups = Math.round(size.projects * 0.8);
  await run(
    `insert into projects (namespace_id, name, path, description, visibility, creator_id, topics, created_at, updated_at, last_activity_at)
     select g.id, 'Seed Project ' || i, 'seed-project-' || i, 'A seeded project ' || i,
            case when i % 3 = 0 then 'private' else n.visibility end,
            owner.id,
            case when i % 5 = 0 then array['seed', 'topic-' || (i % 20)] else '{}' end,
            now() - make_interval(secs => i), now() - make_interval(secs => i), now() - make_interval(secs => i)
     from generate_series(1, $1::int) i
     join seed_groups g on g.n = 1 + (i - 1) % $2::int
     join namespaces n on n.id = g.id
     join seed_users owner on owner.n = 1 + (g.n * 37) % $3::int`,
    [inGroups, size.groups, size.users],
  );
  await run(
    `with made as (
       insert into projects (namespace_id, name, path, description, visibility, creator_id, created_at, updated_at, last_activity_at)
       select u.namespace_id, 'Personal Project ' || i, 'personal-project-' || i, null, ${VISIBILITY}[1 + i % 3], u.id,
              now() - make_interval(secs => i), now() - make_interval(secs => i), now() - make_interval(secs => i)
       from generate_series(1, $1::int) i join seed_users u on u.n = 1 + (i - 1) % $2::int
       returning id, creator_id)
     insert into members (source_type, source_id, user_id, access_level, created_by)
     select 'Project', id, creator_id, 50, creator_id from made`,
    [size.projects - inGroups, size.users],
  );
  await run(
    `insert into members (source_type, source_id, user_id, access_level, created_by)
     select 'Project', p.id, u.id, (array[10,20,30,40])[1 + (p.id + s) % 4], null
     from (select id, row_number() over (order by id)::int as n from projects where path like 'seed-project-%'
           or path like 'personal-project-%') p
     cross join generate_series(1, $2::int) s
     join seed_users u on u.n = 1 + (p.n * 577 + s * 3989) % $1::int
     on conflict do nothing`,
    [size.users, size.membersPerProject],
  );

  // Some sharing, which the access rules and the details views follow.
  await run(
    `insert into group_group_links (shared_group_id, shared_with_group_id, group_access)
     select a.id, b.id, 30 from seed_groups a join seed_groups b on b.n = 1 + (a.n * 53) % $1::int
     where a.n % 10 = 0 and a.id <> b.id on conflict do nothing`,
    [size.groups],
  );
  await run(
    `insert into project_group_links (project_id, group_id, group_access)
     select p.id, g.id, 20 from (select id, row_number() over (order by id)::int as n from projects) p
     join seed_groups g on g.n = 1 + (p.n * 17) % $1::int
     where p.n % 20 = 0 on conflict do nothing`,
    [size.groups],
  );
  await run(
    `insert into project_stars (user_id, project_id)
     select u.id, p.id from (select id, row_number() over (order by id)::int as n from projects) p
     join seed_users u on u.n = 1 + (p.n * 7) % $1::int where p.n % 2 = 0 on conflict do nothing`,
    [size.users],
  );

  // The benchmark's non-administrator: developer in some top-level groups, maintainer of some projects.
  await run(
    `insert into members (source_type, source_id, user_id, access_level)
     select 'Group', g.id, u.id, 30 from seed_groups g, seed_users u
     where u.n = 1 and g.level = 1 and g.n % 80 = 1 on conflict do nothing`,
  );
  await run(
    `insert into members (source_type, source_id, user_id, access_level)
     select 'Project', p.id, u.id, 40 from (select id from projects where path like 'seed-project-%' order by id limit 10) p, seed_users u
     where u.n = 1 on conflict do nothing`,
  );
}

async function memberWithToken(client: pg.Client): Promise<SeededData['member']> {
  const { rows } = await client.query<{ id: number; username: string; name: string }>(
    "select id, username, name from users where username = 'seed-user-1'",
  );
  const user = rows[0];
  if (!user) throw new Error('seed-user-1 is missing');
  const token = `glpat-${randomBytes(15).toString('base64url')}`;
  await client.query("delete from personal_access_tokens where user_id = $1 and name = 'bench'", [user.id]);
  await client.query("insert into personal_access_tokens (user_id, name, token_digest, scopes) values ($1, 'bench', $2, '{api}')", [
    user.id,
    createHash('sha256').update(token).digest('hex'),
  ]);
  return { ...user, token };
}

async function countsOf(client: pg.Client): Promise<SeededData['counts']> {
  const { rows } = await client.query<Record<string, string>>(`select
    (select count(*) from users) as users,
    (select count(*) from namespaces where kind = 'group') as groups,
    (select count(*) from projects) as projects,
    (select count(*) from members where requested_at is null) as memberships`);
  const row = rows[0] ?? {};
  return { users: Number(row.users), groups: Number(row.groups), projects: Number(row.projects), memberships: Number(row.memberships) };
}

async function sampleOf(client: pg.Client, memberId: number): Promise<SeededData['sample']> {
  const { rows } = await client.query<SeededData['sample']>(
    `select
       (select n.id from namespaces n join members m on m.source_type = 'Group' and m.source_id = n.id and m.user_id = $1
        where n.parent_id is null order by n.id limit 1) as "groupId",
       (select n.id from namespaces n join members m on m.source_type = 'Group' and m.source_id = n.traversal_ids[1] and m.user_id = $1
        where cardinality(n.traversal_ids) = 3 order by n.id limit 1) as "nestedGroupId",
       (select p.id from projects p join members m on m.source_type = 'Project' and m.source_id = p.id and m.user_id = $1
        order by p.id limit 1) as "projectId",
       (select id from users where username = 'seed-user-2') as "userId"`,
    [memberId],
  );
  const sample = rows[0];
  if (!sample || Object.values(sample).some((value) => value === null))
    throw new Error(`seeded data lacks samples: ${JSON.stringify(sample)}`);
  return sample;
}

if (import.meta.filename === process.argv[1]) {
  const [databaseUrl, rows] = process.argv.slice(2);
  if (!databaseUrl) throw new Error('usage: node bench/seed.ts <identity database url> [rows]');
  const started = Date.now();
  const data = await seed(databaseUrl, rows ? largeSize(Number(rows)) : STANDARD_SIZE);
  process.stdout.write(`${JSON.stringify({ ...data.counts, seconds: (Date.now() - started) / 1000 })}\n`);
}
