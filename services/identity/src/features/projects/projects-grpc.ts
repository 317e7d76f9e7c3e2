import type { Logger } from '@platform/logger';
import { actorOf, requireUser } from '@platform/auth';
import { unaryHandler, type GrpcServiceBinding, type RpcScope } from '@platform/grpc';
import { inUnitOfWork, type Orm } from '@platform/db';
import { InputError } from '@platform/errors';
import {
  IdentityServiceService,
  type IdentityServiceServer,
  type SetProjectDefaultBranchRequest,
  type SetProjectDefaultBranchResponse,
} from '@platform/proto/identity/v1';
import type { AccessPolicy } from '../access/access-policy.ts';
import type { ProjectsService } from './projects-service.ts';

/** A push sets the default branch: the token must be one that may push. */
const PUSH_SCOPE: RpcScope = ['write_repository'];

/** What other services change on projects: review sets the default branch of a first push. */
export function projectsGrpc(options: { orm: Orm; access: AccessPolicy; projects: ProjectsService; logger: Logger }): GrpcServiceBinding {
  const { orm, access, projects, logger } = options;
  const implementation: Pick<IdentityServiceServer, 'setProjectDefaultBranch'> = {
    setProjectDefaultBranch: unaryHandler(logger, (request: SetProjectDefaultBranchRequest, { caller }) =>
      inUnitOfWork(orm, async (): Promise<SetProjectDefaultBranchResponse> => {
        if (!request.branch) throw new InputError('branch is missing');
        const user = requireUser(caller);
        await projects.setDefaultBranch(await access.viewerOf(user), actorOf(user), request.projectId, request.branch);
        return {};
      }),
    ),
  };
  return { definition: IdentityServiceService, implementation, scopes: { setProjectDefaultBranch: PUSH_SCOPE } };
}
