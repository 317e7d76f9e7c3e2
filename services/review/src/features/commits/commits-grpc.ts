import { requireUser } from '@platform/auth';
import { inUnitOfWork, type Orm } from '@platform/db';
import { InputError } from '@platform/errors';
import { unaryHandler, type GrpcServiceBinding } from '@platform/grpc';
import { requireProjectAccess, type IdentityAccess } from '@platform/identity-client';
import type { Logger } from '@platform/logger';
import {
  ReviewServiceService,
  type GetCommitResponse,
  type ListBranchesContainingResponse,
  type ResolveCommitsResponse,
  type ReviewServiceServer,
} from '@platform/proto/review/v1';
import type { RepositoriesService } from '../repositories/repositories-service.ts';
import { codeReaders } from '../repositories/repository-access.ts';

/** A deployment names two revisions; a few more leave room without letting one call run git without end. */
const MAXIMUM_REVISIONS = 10;
/** As long as the commit API takes. */
const MAXIMUM_REVISION_LENGTH = 1024;

const FULL_SHA = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/** What other services ask about a repository's commits, for the user they act for. */
export function commitsGrpc(options: {
  /** What the calls read repositories in, a unit of work each. */
  orm: Orm;
  access: IdentityAccess;
  repositories: RepositoriesService;
  logger: Logger;
}): GrpcServiceBinding {
  const implementation: Pick<ReviewServiceServer, 'resolveCommits' | 'listBranchesContaining' | 'getCommit'> = {
    resolveCommits: unaryHandler(options.logger, async (request, context): Promise<ResolveCommitsResponse> => {
      const caller = requireUser(context.caller);
      if (request.revisions.length > MAXIMUM_REVISIONS) throw new InputError(`at most ${MAXIMUM_REVISIONS} revisions`);
      if (request.revisions.some((revision) => revision.length === 0 || revision.length > MAXIMUM_REVISION_LENGTH)) {
        throw new InputError(`revisions are 1 to ${MAXIMUM_REVISION_LENGTH} characters`);
      }
      const project = await requireProjectAccess({ access: options.access, caller, idOrPath: request.projectId, ...codeReaders() });
      // A project nothing was pushed to has no repository yet, and no commit: none is created to say so.
      const repository = await inUnitOfWork(options.orm, () => options.repositories.find(project.id));
      const commitIds = await Promise.all(
        request.revisions.map(async (revision) => (repository ? ((await repository.git.resolveCommit(revision)) ?? '') : '')),
      );
      return { commitIds };
    }),
    listBranchesContaining: unaryHandler(options.logger, async (request, context): Promise<ListBranchesContainingResponse> => {
      const caller = requireUser(context.caller);
      if (!FULL_SHA.test(request.sha)) throw new InputError('sha is a full commit id');
      const project = await requireProjectAccess({ access: options.access, caller, idOrPath: request.projectId, ...codeReaders() });
      const repository = await inUnitOfWork(options.orm, () => options.repositories.find(project.id));
      if (!repository || !(await repository.git.resolveCommit(request.sha))) return { branchNames: [] };
      const refs = await repository.git.refsContaining(request.sha, ['branch']);
      return { branchNames: refs.map((ref) => ref.name).sort() };
    }),
    getCommit: unaryHandler(options.logger, async (request, context): Promise<GetCommitResponse> => {
      const caller = requireUser(context.caller);
      if (!FULL_SHA.test(request.sha)) throw new InputError('sha is a full commit id');
      const project = await requireProjectAccess({ access: options.access, caller, idOrPath: request.projectId, ...codeReaders() });
      const repository = await inUnitOfWork(options.orm, () => options.repositories.find(project.id));
      if (!repository || (await repository.git.resolveCommit(request.sha)) !== request.sha) return { commit: undefined };
      const commit = await repository.git.commit(request.sha);
      return {
        commit: {
          id: commit.id,
          message: commit.message,
          authorName: commit.authorName,
          authorEmail: commit.authorEmail,
          committedDate: commit.committedDate,
        },
      };
    }),
  };
  return {
    definition: ReviewServiceService,
    implementation,
    scopes: { resolveCommits: ['read_api'], listBranchesContaining: ['read_api'], getCommit: ['read_api'] },
  };
}
