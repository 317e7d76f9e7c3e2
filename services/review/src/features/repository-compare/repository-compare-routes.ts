import { z } from 'zod';
import type { Caller } from '@platform/auth';
import { ForbiddenError, NotFoundError, RefusedError } from '@platform/errors';
import { params, reply, routesOf } from '@platform/http';
import type { IdentityAccess, ProjectAccess } from '@platform/identity-client';
import { commitView, diffView } from '../commits/commit-views.ts';
import { accessRepository } from '../repositories/project-repositories.ts';
import type { ProjectRepository, RepositoriesService } from '../repositories/repositories-service.ts';
import { gitRevision } from '../repositories/repository-params.ts';

export interface RepositoryCompareRouteDeps {
  access: IdentityAccess;
  repositories: RepositoriesService;
}

const route = routesOf<RepositoryCompareRouteDeps>('review');

/**
 * The repository of `from_project_id`, which GitLab compares from only when the caller may read
 * its code and it is in the project's fork network (the project's upstream, a fork of the
 * project, or a fork of the same upstream): otherwise its 400.
 */
async function forkToCompare(options: {
  deps: RepositoryCompareRouteDeps;
  caller: Caller;
  project: ProjectAccess;
  fromProjectId: number;
}): Promise<ProjectRepository> {
  const { project, fromProjectId } = options;
  const refusal = new RefusedError(`Target project id:${fromProjectId} is not a fork of project id:${project.id}`);
  const from = await accessRepository({ ...options.deps, caller: options.caller, idOrPath: fromProjectId, need: 'read' }).catch(
    (error: unknown) => {
      if (error instanceof NotFoundError || error instanceof ForbiddenError) throw refusal;
      throw error;
    },
  );
  const upstream = (candidate: ProjectAccess) => candidate.forkedFromProjectId;
  const related =
    upstream(project) === from.project.id ||
    upstream(from.project) === project.id ||
    (upstream(project) !== null && upstream(project) === upstream(from.project));
  if (!related) throw refusal;
  return from.repository;
}

/** As many refs as merge_base takes: enough for any octopus, few enough to bound the git call. */
const MAXIMUM_MERGE_BASE_REFS = 20;

export const repositoryCompareRoutes = [
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/repository/compare',
    access: 'anonymous',
    scope: 'read_api',
    input: z.object({
      id: params.idOrPath(),
      from: gitRevision(),
      to: gitRevision(),
      straight: params.boolean().default(false),
      from_project_id: params.integer().optional(),
      // `unidiff` asks for git's own file headers, which these diffs never carry (GitLab's default).
      unidiff: params.boolean().optional(),
    }),
    handle: async ({ caller, input, deps }) => {
      const { project, repository } = await accessRepository({ ...deps, caller, idOrPath: input.id, need: 'read' });
      const { git } = repository;
      const fromRepository =
        input.from_project_id === undefined || input.from_project_id === project.id
          ? repository
          : await forkToCompare({ deps, caller, project, fromProjectId: input.from_project_id });
      const [from, to] = await Promise.all([fromRepository.git.resolveCommit(input.from), git.resolveCommit(input.to)]);
      if (!from || !to) throw new NotFoundError('Ref');
      // Another project's commit is brought into this repository first, as GitLab's CompareService does.
      if (fromRepository !== repository && !(await git.resolveCommit(from)))
        await git.fetchCommit({ source: fromRepository.git, sha: from, into: `refs/keep-around/${from}` });
      // `from...to` compares against the merge base (straight: `from..to`); unrelated histories compare directly.
      const base = input.straight ? from : ((await git.mergeBase(from, to)) ?? from);
      const [commits, diffs] = await Promise.all([git.log({ head: to, excluded: [from] }), git.diff(base, to)]);
      const oldestFirst = commits.reverse();
      return {
        commit: oldestFirst.length > 0 ? commitView(oldestFirst.at(-1)!, project) : null,
        commits: oldestFirst.map((commit) => commitView(commit, project)),
        diffs: diffs.map(diffView),
        compare_timeout: false,
        compare_same_ref: input.from === input.to,
        web_url: `${project.webUrl}/-/compare/${input.from}...${input.to}`,
      };
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/projects/:id/repository/merge_base',
    access: 'anonymous',
    scope: 'read_api',
    input: z.object({
      id: params.idOrPath(),
      refs: z.preprocess(
        (value) => (typeof value === 'string' ? value.split(',') : value),
        z.array(gitRevision()).max(MAXIMUM_MERGE_BASE_REFS),
      ),
    }),
    handle: async ({ caller, input, deps }) => {
      const { project, repository } = await accessRepository({ ...deps, caller, idOrPath: input.id, need: 'read' });
      if (input.refs.length < 2) return reply({ status: 400, body: { message: 'Provide at least 2 refs' } });
      const commits = await Promise.all(input.refs.map((ref) => repository.git.resolveCommit(ref)));
      const unknown = input.refs.filter((_ref, index) => !commits[index]);
      if (unknown.length > 0) {
        return reply({ status: 400, body: { message: `Could not find ${unknown.length === 1 ? 'ref' : 'refs'}: ${unknown.join(', ')}` } });
      }
      const base = await repository.git.mergeBaseOf(commits.filter((commit): commit is string => commit !== null));
      if (!base) throw new NotFoundError('Merge Base');
      return commitView(await repository.git.commit(base), project);
    },
  }),
];
