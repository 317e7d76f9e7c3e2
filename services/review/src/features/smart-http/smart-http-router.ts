/**
 * Git over HTTP, as GitLab serves it: `GET /<namespace>/<project>.git/info/refs?service=...`,
 * `POST .../git-upload-pack` (clone, fetch) and `POST .../git-receive-pack` (push). The gateway
 * has turned HTTP Basic credentials (any username, a personal access token as password) into
 * the signed caller; refusals are plain text, which the git CLI shows as `remote:` lines.
 */
import { Router, type NextFunction, type Request, type Response } from 'express';
import { deployTokenCovers, deployTokenOf, hasScope, type AuthenticatedCaller, type Caller } from '@platform/auth';
import { inUnitOfWork, type Orm } from '@platform/db';
import { NotFoundError } from '@platform/errors';
import { callerOf } from '@platform/http';
import type { IdentityAccess, ProjectAccess } from '@platform/identity-client';
import type { Logger } from '@platform/logger';
import {
  READ_ONLY_MESSAGE,
  RepositoryReadOnlyError,
  type ProjectRepository,
  type RepositoriesService,
} from '../repositories/repositories-service.ts';
import { mayPushCode, mayReadCode } from '../repositories/repository-access.ts';
import { runGitHttpBackend } from './git-http-backend.ts';

export interface SmartHttpDeps {
  /** Git requests are served outside the API router, so each runs in a unit of work of its own on it. */
  orm: Orm;
  repositories: RepositoriesService;
  access: IdentityAccess;
  logger: Logger;
  /** The variables that make git run the pre-receive hook on a push by `pusher`, judging it by the branch protections. */
  pushEnvironment(options: {
    project: ProjectAccess;
    repository: ProjectRepository;
    pusher: AuthenticatedCaller;
  }): Promise<Record<string, string>>;
}

type GitService = 'git-upload-pack' | 'git-receive-pack';

export const GIT_MESSAGES = {
  notFound: "The project you were looking for could not be found or you don't have permission to view it.",
  download: 'You are not allowed to download code from this project.',
  push: 'You are not allowed to push code to this project.',
  archived: 'You are not allowed to push code to an archived project.',
  uploadScope: 'You are not allowed to upload code.',
  readOnly: READ_ONLY_MESSAGE,
  dumbHttp: 'Only the smart HTTP protocol is supported: git-upload-pack or git-receive-pack.',
};

/** A refusal the git CLI shows to its user. */
class GitRefusal extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** GitLab's challenge: the git CLI asks for credentials (or uses its helper) and tries again. */
function challenge(): GitRefusal {
  return new GitRefusal(401, 'HTTP Basic: Access denied');
}

/**
 * May `caller` use `service` on `project`? GitLab's order: a deploy token only reads; an anonymous caller is challenged
 * where it could be somebody with more rights; a token needs a git scope; then the access level;
 * then, for pushes, the read-only flag (checked by the caller, which knows the repository).
 */
export function refusalFor(options: { caller: Caller; service: GitService; project: ProjectAccess | undefined }): GitRefusal | undefined {
  const { caller, service, project } = options;
  const push = service === 'git-receive-pack';
  const deployToken = deployTokenOf(caller);
  // GitLab's deploy tokens clone and fetch their project, or their group's, with read_repository; they never push.
  if (deployToken) {
    if (!project) return new GitRefusal(404, GIT_MESSAGES.notFound);
    if (!deployTokenCovers(deployToken, project, 'read_repository') && !mayReadCode(project)) {
      return new GitRefusal(403, GIT_MESSAGES.download);
    }
    return push ? new GitRefusal(403, GIT_MESSAGES.uploadScope) : undefined;
  }
  if (caller.kind === 'user' && !hasScope(caller, 'read_repository')) return challenge();
  if (!project) return caller.kind === 'anonymous' ? challenge() : new GitRefusal(404, GIT_MESSAGES.notFound);
  if (caller.kind === 'anonymous' && (push || !mayReadCode(project))) return challenge();
  if (!mayReadCode(project)) return new GitRefusal(403, GIT_MESSAGES.download);
  if (!push) return undefined;
  if (caller.kind === 'user' && !hasScope(caller, 'write_repository')) return new GitRefusal(403, GIT_MESSAGES.uploadScope);
  if (project.archived) return new GitRefusal(403, GIT_MESSAGES.archived);
  if (!mayPushCode(project)) return new GitRefusal(403, GIT_MESSAGES.push);
  return undefined;
}

function refuse(res: Response, refusal: GitRefusal): void {
  if (refusal.status === 401) res.setHeader('WWW-Authenticate', 'Basic realm="GitLab"');
  res.status(refusal.status).type('text/plain').send(refusal.message);
}

export function smartHttpRoutes(deps: SmartHttpDeps): Router {
  const router = Router();

  async function serve(req: Request, res: Response, options: { projectPath: string; service: GitService; pathInfo: string }) {
    const caller = callerOf(req);
    const project = await deps.access.project({ idOrPath: options.projectPath, caller }).catch((error: unknown) => {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    });
    const refusal = refusalFor({ caller, service: options.service, project });
    if (refusal || !project) {
      refuse(res, refusal ?? challenge());
      req.resume();
      return;
    }
    const repository = await deps.repositories.ensure(project.id, { forkedFromProjectId: project.forkedFromProjectId });
    const pushing = options.service === 'git-receive-pack';
    if (pushing && repository.readOnly) {
      refuse(res, new GitRefusal(403, GIT_MESSAGES.readOnly));
      req.resume();
      return;
    }
    const run = (environment?: Record<string, string>) =>
      runGitHttpBackend({
        req,
        res,
        repositoryPath: repository.git.path,
        pathInfo: options.pathInfo,
        ...(caller.kind === 'user' ? { remoteUser: caller.username } : {}),
        ...(environment ? { environment } : {}),
      });
    // Only the POST of receive-pack changes refs; refusalFor lets no anonymous caller push.
    if (pushing && req.method === 'POST' && caller.kind === 'user') {
      // Read under the repository's lock: the protections and default branch the push is judged by cannot move meanwhile.
      try {
        await deps.repositories.changeRefs(repository, caller, async () =>
          run(await deps.pushEnvironment({ project, repository, pusher: caller })),
        );
      } catch (error) {
        // A storage move began while the push waited for the repository: nothing was written yet.
        if (!(error instanceof RepositoryReadOnlyError) || res.headersSent) throw error;
        refuse(res, new GitRefusal(403, GIT_MESSAGES.readOnly));
        req.resume();
        return;
      }
    } else await run();
    res.end();
  }

  const handle = (options: (req: Request) => { service: GitService | undefined; pathInfo: string }) => {
    return (req: Request, res: Response, next: NextFunction) => {
      const projectPath = String((req.params as Record<string, string>)[0] ?? '');
      const { service, pathInfo } = options(req);
      if (!service) {
        refuse(res, new GitRefusal(403, GIT_MESSAGES.dumbHttp));
        return;
      }
      inUnitOfWork(deps.orm, () => serve(req, res, { projectPath, service, pathInfo })).catch((error: unknown) => {
        if (res.headersSent) {
          deps.logger.error({ err: error, url: req.originalUrl }, 'git request failed after its response started');
          res.destroy();
          return;
        }
        next(error);
      });
    };
  };

  const SERVICES = new Set<string>(['git-upload-pack', 'git-receive-pack']);
  router.get(
    /^\/(.+)\.git\/info\/refs$/,
    handle((req) => {
      const service =
        typeof req.query.service === 'string' && SERVICES.has(req.query.service) ? (req.query.service as GitService) : undefined;
      return { service, pathInfo: '/info/refs' };
    }),
  );
  router.post(
    /^\/(.+)\.git\/(git-upload-pack|git-receive-pack)$/,
    handle((req) => {
      const service = String((req.params as Record<string, string>)[1]) as GitService;
      return { service, pathInfo: `/${service}` };
    }),
  );
  return router;
}
