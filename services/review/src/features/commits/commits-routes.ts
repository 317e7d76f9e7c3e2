import { z } from 'zod';
import type { Caller } from '@platform/auth';
import { ForbiddenError, NotFoundError } from '@platform/errors';
import { pageParams, pageShape, params, reply, routesOf, type PageRequest } from '@platform/http';
import type { IdentityAccess, ProjectAccess } from '@platform/identity-client';
import type { RepositoriesService } from '../repositories/repositories-service.ts';
import { accessRepository } from '../repositories/project-repositories.ts';
import { CONTENT_BODY_BYTES, gitRevision, repositoryPath } from '../repositories/repository-params.ts';
import type { GitRepository, RefKind } from '../repositories/git-repository.ts';
import type { CommitAction, CommitWriter } from '../repository-writes/commit-writer.ts';
import { PickRefusedError, type ChangePicker, type PickKind } from '../repository-writes/change-picker.ts';
import { commitDetailView, commitView, diffView, statsView } from './commit-views.ts';

/** GitLab's merge request list states, the `state` a commit's merge requests are filtered by. */
const MERGE_REQUEST_STATES = ['opened', 'closed', 'locked', 'merged', 'all'] as const;

/** The merge requests of a project whose changes contain a commit, listed as merge requests are (that feature knows them). */
export interface CommitMergeRequestLookup {
  list(options: {
    caller: Caller;
    project: ProjectAccess;
    git: GitRepository;
    sha: string;
    state: (typeof MERGE_REQUEST_STATES)[number];
    window: PageRequest;
  }): Promise<{ items: unknown[]; total: number | null }>;
}

export interface CommitsRouteDeps {
  access: IdentityAccess;
  repositories: RepositoriesService;
  writer: CommitWriter;
  picker: ChangePicker;
  mergeRequests: CommitMergeRequestLookup;
}

const route = routesOf<CommitsRouteDeps>('review');

/** `POST .../commits/:sha/cherry_pick` and `.../revert`: 201 with the new commit, `{"dry_run": "success"}` for a dry run that would apply. */
const pickRoute = (kind: PickKind) =>
  route({
    method: 'POST',
    path: `/api/v4/projects/:id/repository/commits/:sha/${kind}`,
    access: 'user',
    scope: 'api',
    status: 201,
    input: z.object({
      id: params.idOrPath(),
      sha: gitRevision(),
      branch: gitRevision(),
      dry_run: params.boolean().default(false),
      ...(kind === 'cherry_pick'
        ? {
            message: z
              .string()
              .max(1024 * 1024)
              .optional(),
          }
        : {}),
    }),
    handle: async ({ caller, input, deps }) => {
      const accessed = await accessRepository({ ...deps, caller, idOrPath: input.id, need: 'push' });
      const sha = await accessed.repository.git.resolveCommit(input.sha);
      if (!sha) throw new NotFoundError('Commit');
      const message = 'message' in input && typeof input.message === 'string' ? input.message : undefined;
      try {
        const picked = await deps.picker.pick({
          accessed,
          caller,
          kind,
          commit: await accessed.repository.git.commit(sha),
          branch: input.branch,
          dryRun: input.dry_run,
          message,
        });
        return picked ? commitView(picked, accessed.project) : reply({ status: 200, body: { dry_run: 'success' } });
      } catch (error) {
        // GitLab's refusal carries an error code (and the dry run's outcome) beside its message.
        if (!(error instanceof PickRefusedError)) throw error;
        const body = { message: error.message, error_code: error.errorCode, ...(input.dry_run ? { dry_run: 'error' } : {}) };
        return reply({ status: 400, body });
      }
    },
  });

/** One action of `POST .../repository/commits`, as `lib/api/commits.rb` takes it. */
const contentFields = {
  file_path: repositoryPath(),
  content: z.string().optional(),
  encoding: z.enum(['text', 'base64']).default('text'),
  last_commit_id: z.string().max(64).optional(),
  execute_filemode: params.boolean().optional(),
};
const commitActionInput = z.discriminatedUnion('action', [
  z.object({ action: z.literal('create'), ...contentFields }),
  z.object({ action: z.literal('update'), ...contentFields, content: z.string() }),
  z.object({ action: z.literal('delete'), ...contentFields }),
  z.object({ action: z.literal('move'), ...contentFields, previous_path: repositoryPath() }),
  z.object({ action: z.literal('chmod'), ...contentFields, execute_filemode: params.boolean() }),
]);
type CommitActionInput = z.infer<typeof commitActionInput>;

/**
 * The repository of `start_project`, which GitLab starts a commit from only when the project was
 * forked from it (404 when the caller cannot read it, 403 outside the fork).
 */
async function upstreamToStartFrom(options: {
  deps: CommitsRouteDeps;
  caller: Caller;
  project: ProjectAccess;
  startProject: string | number;
}): Promise<GitRepository> {
  const start = await accessRepository({ ...options.deps, caller: options.caller, idOrPath: options.startProject, need: 'read' });
  if (options.project.forkedFromProjectId !== start.project.id)
    throw new ForbiddenError(`Project is not included in the fork network for ${start.project.pathWithNamespace}`);
  return start.repository.git;
}

/** The most actions one commit takes: each is a few git calls, and the body bounds their content anyway. */
const MAXIMUM_ACTIONS = 1000;

function actionOf(input: CommitActionInput): CommitAction {
  const content = (text: string) => Buffer.from(text, input.encoding === 'base64' ? 'base64' : 'utf8');
  const filePath = input.file_path;
  switch (input.action) {
    case 'create':
      return { action: 'create', filePath, content: content(input.content ?? ''), executeFilemode: input.execute_filemode };
    case 'update':
      return {
        action: 'update',
        filePath,
        content: content(input.content),
        executeFilemode: input.execute_filemode,
        lastCommitId: input.last_commit_id,
      };
    case 'delete':
      return { action: 'delete', filePath, lastCommitId: input.last_commit_id };
    case 'move':
      return {
        action: 'move',
        filePath,
        previousPath: input.previous_path,
        content: input.content === undefined ? undefined : content(input.content),
        lastCommitId: input.last_commit_id,
      };
    case 'chmod':
      return { action: 'chmod', filePath, executeFilemode: input.execute_filemode };
  }
}

export const commitsRoutes = [
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/repository/commits/:sha',
    access: 'anonymous',
    scope: 'read_api',
    input: z.object({ id: params.idOrPath(), sha: gitRevision(), stats: params.boolean().default(true) }),
    handle: async ({ caller, input, deps }) => {
      const { project, repository } = await accessRepository({ ...deps, caller, idOrPath: input.id, need: 'read' });
      const sha = await repository.git.resolveCommit(input.sha);
      if (!sha) throw new NotFoundError('Commit');
      const commit = await repository.git.commit(sha);
      return commitDetailView(commit, input.stats ? await repository.git.diffStats(commit) : null, project);
    },
  }),

  route.list({
    path: '/api/v4/projects/:id/repository/commits',
    access: 'anonymous',
    scope: 'read_api',
    input: z.object({
      id: params.idOrPath(),
      ref_name: gitRevision().optional(),
      since: params.datetime().optional(),
      until: params.datetime().optional(),
      path: repositoryPath({ leadingSlash: true }).optional(),
      author: z.string().max(255).optional(),
      all: params.boolean().default(false),
      with_stats: params.boolean().default(false),
      first_parent: params.boolean().default(false),
      order: z.enum(['default', 'topo']).default('default'),
      trailers: params.boolean().default(false),
    }),
    handle: async ({ caller, input, deps, window }) => {
      const { project, repository } = await accessRepository({ ...deps, caller, idOrPath: input.id, need: 'read' });
      const { git } = repository;
      // One more than the page tells whether a next page exists; GitLab sends no totals for commits either.
      const found = await git.logCommits({
        ...(input.ref_name ? { revision: input.ref_name } : {}),
        all: input.all,
        ...(input.path ? { path: input.path } : {}),
        ...(input.since ? { since: input.since } : {}),
        ...(input.until ? { until: input.until } : {}),
        ...(input.author ? { author: input.author } : {}),
        firstParent: input.first_parent,
        topoOrder: input.order === 'topo',
        skip: window.offset,
        maxCount: window.limit + 1,
      });
      const commits = found.slice(0, window.limit);
      const trailers = input.trailers ? await git.trailers(commits.map((commit) => commit.id)) : new Map<string, Array<[string, string]>>();
      const items = await Promise.all(
        commits.map(async (commit) => ({
          ...commitView(commit, project, trailers.get(commit.id)),
          ...(input.with_stats ? { stats: statsView(await git.diffStats(commit)) } : {}),
        })),
      );
      return { items, total: null, hasNext: found.length > window.limit };
    },
  }),

  route.list({
    path: '/api/v4/projects/:id/repository/commits/:sha/diff',
    access: 'anonymous',
    scope: 'read_api',
    // `unidiff` asks for git's own file headers, which these diffs never carry (GitLab's default).
    input: z.object({ id: params.idOrPath(), sha: gitRevision(), unidiff: params.boolean().optional() }),
    handle: async ({ caller, input, deps, window }) => {
      const { repository } = await accessRepository({ ...deps, caller, idOrPath: input.id, need: 'read' });
      const sha = await repository.git.resolveCommit(input.sha);
      if (!sha) throw new NotFoundError('Commit');
      const diffs = await repository.git.commitDiff(await repository.git.commit(sha));
      return { items: diffs.slice(window.offset, window.offset + window.limit).map(diffView), total: diffs.length };
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/projects/:id/repository/commits/:sha/merge_requests',
    // Anyone who may read the code: anonymous callers too, on a public project.
    access: 'anonymous',
    scope: 'read_api',
    input: z.object({ id: params.idOrPath(), sha: gitRevision(), state: z.enum(MERGE_REQUEST_STATES).default('all'), ...pageShape }),
    handle: async ({ caller, input, deps, page }) => {
      const { project, repository } = await accessRepository({ ...deps, caller, idOrPath: input.id, need: 'read' });
      const sha = await repository.git.resolveCommit(input.sha);
      if (!sha) throw new NotFoundError('Commit');
      const window = pageParams(input);
      return page(window, await deps.mergeRequests.list({ caller, project, git: repository.git, sha, state: input.state, window }));
    },
  }),

  route.list({
    path: '/api/v4/projects/:id/repository/commits/:sha/refs',
    access: 'anonymous',
    scope: 'read_api',
    input: z.object({ id: params.idOrPath(), sha: gitRevision(), type: z.enum(['branch', 'tag', 'all']).default('all') }),
    handle: async ({ caller, input, deps, window }) => {
      const { repository } = await accessRepository({ ...deps, caller, idOrPath: input.id, need: 'read' });
      const sha = await repository.git.resolveCommit(input.sha);
      if (!sha) throw new NotFoundError('Commit');
      const kinds: RefKind[] = input.type === 'all' ? ['branch', 'tag'] : [input.type];
      const refs = await repository.git.refsContaining(sha, kinds);
      // Branches first, then tags, as GitLab lists them.
      const ordered = [...refs.filter((ref) => ref.kind === 'branch'), ...refs.filter((ref) => ref.kind === 'tag')];
      return {
        items: ordered.slice(window.offset, window.offset + window.limit).map((ref) => ({ type: ref.kind, name: ref.name })),
        total: ordered.length,
      };
    },
  }),

  route({
    method: 'POST',
    path: '/api/v4/projects/:id/repository/commits',
    access: 'user',
    scope: 'api',
    status: 201,
    bodyBytes: CONTENT_BODY_BYTES,
    input: z.object({
      id: params.idOrPath(),
      branch: gitRevision(),
      commit_message: z.string().max(1024 * 1024),
      start_branch: gitRevision().optional(),
      start_sha: z.string().max(64).optional(),
      start_project: params.idOrPath().optional(),
      actions: z.array(commitActionInput).min(1).max(MAXIMUM_ACTIONS),
      author_email: z.string().max(255).optional(),
      author_name: z.string().max(255).optional(),
      stats: params.boolean().default(true),
      force: params.boolean().default(false),
    }),
    handle: async ({ caller, input, deps }) => {
      const accessed = await accessRepository({ ...deps, caller, idOrPath: input.id, need: 'push' });
      const startRepository =
        input.start_project === undefined
          ? undefined
          : await upstreamToStartFrom({ deps, caller, project: accessed.project, startProject: input.start_project });
      const commit = await deps.writer.commit({
        accessed,
        caller,
        request: {
          branch: input.branch,
          startBranch: input.start_branch,
          startSha: input.start_sha,
          startRepository,
          force: input.force,
          message: input.commit_message,
          authorName: input.author_name,
          authorEmail: input.author_email,
          actions: input.actions.map(actionOf),
        },
      });
      const stats = input.stats ? await accessed.repository.git.diffStats(commit) : null;
      return commitDetailView(commit, stats, accessed.project);
    },
  }),

  pickRoute('cherry_pick'),
  pickRoute('revert'),
];
