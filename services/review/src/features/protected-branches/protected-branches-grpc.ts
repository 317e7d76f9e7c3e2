import { requireUser } from '@platform/auth';
import { inUnitOfWork, type Orm } from '@platform/db';
import { InputError } from '@platform/errors';
import { unaryHandler, type GrpcServiceBinding } from '@platform/grpc';
import type { IdentityAccess } from '@platform/identity-client';
import type { Logger } from '@platform/logger';
import { ReviewServiceService, type CheckBranchUpdateResponse, type ReviewServiceServer } from '@platform/proto/review/v1';
import type { ProtectedBranchesService } from './protected-branches-service.ts';

/** What other services ask about protected branches, for the user they act for. */
export function protectedBranchesGrpc(options: {
  /** What the calls read protections in, a unit of work each. */
  orm: Orm;
  access: IdentityAccess;
  protectedBranches: ProtectedBranchesService;
  logger: Logger;
}): GrpcServiceBinding {
  const implementation: Pick<ReviewServiceServer, 'checkBranchUpdate'> = {
    checkBranchUpdate: unaryHandler(options.logger, async (request, context): Promise<CheckBranchUpdateResponse> => {
      const caller = requireUser(context.caller);
      if (request.branch.length === 0) throw new InputError('branch is missing');
      // A project the caller does not see is not found, as it is to its API.
      const project = await options.access.project({ idOrPath: String(request.projectId), caller });
      const allowed = await inUnitOfWork(options.orm, () =>
        options.protectedBranches.mayUpdateBranch({ project, userId: caller.userId, branch: request.branch }),
      );
      return { allowed };
    }),
  };
  return { definition: ReviewServiceService, implementation, scopes: { checkBranchUpdate: ['api'] } };
}
