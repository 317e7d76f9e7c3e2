/**
 * Seeds review's database with one project's merge requests for the benchmark's
 * `GET /projects/:id/merge_requests`: a project with a realistic history (mostly merged and
 * closed, some open, drafts), each merge request with authors, assignees and reviewers among the
 * seeded users, labels, a milestone for most, discussion notes (some of them system notes, some
 * resolvable threads, a few of an open merge request's unresolved), award emoji and, for some open
 * ones, a merge set for when the pipeline succeeds, so that the list's page reads everything its
 * view shows (notes counts, blocking discussions, votes, milestones, users through identity).
 *
 * The project and the users are identity's (seeded by seed.ts): their ids and the project's
 * namespace ancestry are read from identity's database. Idempotent: a project that already has
 * merge requests is left as it is.
 */
import pg from 'pg';

export interface MergeRequestSeedSize {
  mergeRequests: number;
  notesPerMergeRequest: number;
}

/** The seeded users merge requests name, in the same order in each array. */
interface SeededUsers {
  ids: number[];
  usernames: string[];
  names: string[];
}

export const STANDARD_MERGE_REQUESTS: MergeRequestSeedSize = { mergeRequests: 500, notesPerMergeRequest: 6 };

export async function seedMergeRequests(options: {
  identityUrl: string;
  reviewUrl: string;
  projectId: number;
  size?: MergeRequestSeedSize;
}): Promise<{ mergeRequests: number; notes: number }> {
  const size = options.size ?? STANDARD_MERGE_REQUESTS;
  const identity = new pg.Client({ connectionString: options.identityUrl });
  await identity.connect();
  let userIds: number[];
  let users: SeededUsers;
  let namespaceIds: number[];
  try {
    const { rows } = await identity.query<{ id: number; username: string; name: string }>(
      "select id, username, name from users where username like 'seed-user-%' order by id limit 40",
    );
    userIds = rows.map((row) => Number(row.id));
    users = { ids: userIds, usernames: rows.map((row) => row.username), names: rows.map((row) => row.name) };
    const project = await identity.query<{ traversal_ids: number[] }>(
      'select n.traversal_ids from projects p join namespaces n on n.id = p.namespace_id where p.id = $1',
      [options.projectId],
    );
    namespaceIds = project.rows[0]?.traversal_ids ?? [];
  } finally {
    await identity.end();
  }
  if (userIds.length === 0 || namespaceIds.length === 0) throw new Error(`identity has no seeded users or no project ${options.projectId}`);

  const review = new pg.Client({ connectionString: options.reviewUrl });
  await review.connect();
  try {
    await review.query('begin');
    const existing = await review.query<{ count: string }>('select count(*) from merge_requests where project_id = $1', [
      options.projectId,
    ]);
    if (Number(existing.rows[0]?.count) === 0) await insertMergeRequests(review, { ...options, size, users, namespaceIds });
    await review.query('commit');
    await review.query('vacuum analyze merge_requests, notes, award_emoji, milestones, labels, merge_request_auto_merges');
    const { rows } = await review.query<{ merge_requests: string; notes: string }>(
      `select (select count(*) from merge_requests where project_id = $1) as merge_requests,
              (select count(*) from notes where project_id = $1) as notes`,
      [options.projectId],
    );
    return { mergeRequests: Number(rows[0]?.merge_requests), notes: Number(rows[0]?.notes) };
  } catch (error) {
    await review.query('rollback').catch(() => {});
    throw error;
  } finally {
    await review.end();
  }
}

async function insertMergeRequests(
  client: pg.Client,
  options: { projectId: number; size: MergeRequestSeedSize; users: SeededUsers; namespaceIds: number[] },
): Promise<void> {
  const { projectId, size, namespaceIds } = options;
  const seeded = options.users;
  const userIds = seeded.ids;
  const user = (expression: string, users = '$3') => `(${users}::bigint[])[1 + (${expression}) % cardinality(${users}::bigint[])]`;
  await client.query(
    `insert into labels (project_id, title, color, description, created_at, updated_at)
     select $1, title, color, 'Seeded label ' || title, now(), now()
     from unnest(array['bug','feature','backend','frontend','security','documentation']) with ordinality t(title, i)
     join unnest(array['#d9534f','#428bca','#5cb85c','#f0ad4e','#8e44ad','#34495e']) with ordinality c(color, j) on i = j`,
    [projectId],
  );
  await client.query(
    `insert into milestones (project_id, iid, title, description, state, start_date, due_date, created_at, updated_at)
     select $1, i, 'Release ' || i, 'Seeded milestone ' || i, case when i < 5 then 'closed' else 'active' end,
            current_date - (60 - i * 10), current_date - (50 - i * 10), now() - make_interval(days => 90 - i), now()
     from generate_series(1, 6) i`,
    [projectId],
  );
  // Older merge requests are mostly merged or closed, the newest mostly open (a few drafts).
  await client.query(
    `insert into merge_requests (project_id, iid, source_project_id, target_namespace_ids, source_branch, target_branch, title,
       draft, description, state, author_id, assignee_ids, reviewer_ids, labels, milestone_id, squash, force_remove_source_branch,
       merge_status, head_sha, merge_commit_sha, merged_by_id, merged_at, closed_by_id, closed_at, created_at, updated_at)
     select $1, i, $1, $4::bigint[], 'feature/seed-' || i, 'main',
            case when i % 9 = 0 then 'Draft: ' else '' end || 'Seeded change ' || i || ': ' || (array['fix','add','refactor','document'])[1 + i % 4] || ' the thing',
            i % 9 = 0 and state = 'opened', 'Seeded description ' || i || E'\\n\\nCloses #' || i, state,
            ${user('i * 7')}, array[${user('i * 11')}], case when i % 3 = 0 then array[${user('i * 13')}, ${user('i * 17 + 1')}] else array[${user('i * 13')}] end,
            case i % 5 when 0 then array['bug'] when 1 then array['feature', 'backend'] when 2 then array['frontend']
              when 3 then array['security', 'backend', 'bug'] else '{}'::text[] end,
            case when i % 4 <> 0 then (select id from milestones m where m.project_id = $1 and m.iid = 1 + i % 6) end,
            i % 2 = 0, true, case when state = 'opened' then 'can_be_merged' else 'unchecked' end,
            md5('head' || i) || substr(md5('h' || i), 1, 8),
            case when state = 'merged' then md5('merge' || i) || substr(md5('m' || i), 1, 8) end,
            case when state = 'merged' then ${user('i * 19')} end, case when state = 'merged' then created + interval '2 days' end,
            case when state = 'closed' then ${user('i * 23')} end, case when state = 'closed' then created + interval '3 days' end,
            created, created + interval '3 days'
     from (select i, now() - make_interval(hours => ($2::int - i) * 6) as created,
                  case when i > $2::int * 0.85 then 'opened' when i % 5 = 0 then 'closed' else 'merged' end as state
           from generate_series(1, $2::int) i) s`,
    [projectId, size.mergeRequests, userIds, namespaceIds],
  );
  await client.query(
    `insert into notes (project_id, noteable_type, noteable_id, noteable_iid, discussion_id, author_id, body, system, created_at, updated_at,
       type, resolvable, resolved_at)
     select $1, 'MergeRequest', mr.id, mr.iid, md5('seed-note' || mr.id || '-' || n) || substr(md5('seed-discussion' || mr.id || '-' || n), 1, 8),
            ${user('mr.iid * 29 + n')},
            case when n % 3 = 0 then 'added ' || n || ' commits' else 'Seeded comment ' || n || ' on !' || mr.iid end,
            n % 3 = 0, mr.created_at + make_interval(mins => n * 30), mr.created_at + make_interval(mins => n * 30),
            -- The first comment starts a thread: resolved, but on every third open merge request not yet.
            case when n = 1 then 'DiscussionNote' end, n = 1,
            case when n = 1 and not (mr.state = 'opened' and mr.iid % 3 = 0) then mr.created_at + make_interval(hours => 2) end
     from merge_requests mr cross join generate_series(1, $2::int) n where mr.project_id = $1`,
    [projectId, size.notesPerMergeRequest, userIds],
  );
  await client.query(
    `insert into award_emoji (name, user_id, awardable_type, awardable_id, created_at, updated_at)
     select (array['thumbsup','thumbsup','thumbsdown','tada'])[1 + (mr.iid + k) % 4], ${user('mr.iid * 31 + k', '$2')}, 'MergeRequest', mr.id, now(), now()
     from merge_requests mr cross join generate_series(1, 3) k where mr.project_id = $1 and mr.iid % 2 = 0
     on conflict do nothing`,
    [projectId, userIds],
  );
  await client.query(
    `insert into merge_request_auto_merges (merge_request_id, merge_user_id, merge_user_username, merge_user_name, sha, created_at)
     select mr.id, mr.author_id, ($3::text[])[array_position($2::bigint[], mr.author_id)],
            ($4::text[])[array_position($2::bigint[], mr.author_id)], mr.head_sha, mr.updated_at
     from merge_requests mr where mr.project_id = $1 and mr.state = 'opened' and not mr.draft and mr.iid % 4 = 0`,
    [projectId, seeded.ids, seeded.usernames, seeded.names],
  );
}
