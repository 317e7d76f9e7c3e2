import type { Caller } from '@platform/auth';
import type { EntityManager, Orm } from '@platform/db';
import { createRouter } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import type { Logger } from '@platform/logger';
import type { Feature } from '@platform/service';
import type { UserDirectory } from '../core/user-directory.ts';
import type { SmartHttpDeps } from '../smart-http/smart-http-router.ts';
import { ProtectedBranch, ProtectedBranchAccessLevel } from './protected-branch.entity.ts';
import type { EntryNames } from './protected-branch-views.ts';
import { PgProtectedBranchStore } from './protected-branches-store.ts';
import { ProtectedBranchesService, type GroupMembership, type TagProtections } from './protected-branches-service.ts';
import { protectedBranchesRoutes } from './protected-branches-routes.ts';
import { PreReceiveHook } from './pre-receive-hook.ts';
import { protectedBranchesGrpc } from './protected-branches-grpc.ts';

export const protectedBranchesEntities = [ProtectedBranch, ProtectedBranchAccessLevel];

export interface ProtectedBranchesFeature extends Feature {
  protectedBranches: ProtectedBranchesService;
  /** The variables that make git judge a push by the branch protections, in its pre-receive hook. */
  pushEnvironment: SmartHttpDeps['pushEnvironment'];
}

/** Protected branches: who may push, merge and force-push to which branches, enforced on every push by git's pre-receive hook. */
export function createProtectedBranchesFeature(deps: {
  em: EntityManager;
  /** What gRPC calls open their units of work on. */
  orm: Orm;
  logger: Logger;
  access: IdentityAccess;
  users: UserDirectory;
  /** Identity's groups: their members, and their names in the entries that name them. */
  groups: GroupMembership & { groups(ids: number[]): Promise<Map<number, { name: string }>> };
  dataDirectory: string;
  /** The project's protected tags, which pushes are judged by too. */
  tags: TagProtections;
}): ProtectedBranchesFeature {
  const { users, groups } = deps;
  const protectedBranches = new ProtectedBranchesService({
    em: deps.em,
    store: new PgProtectedBranchStore(deps.em),
    groups,
    tags: deps.tags,
  });
  const preReceiveHook = new PreReceiveHook({ dataDirectory: deps.dataDirectory });
  const entryNames = async ({ userIds, groupIds }: { userIds: number[]; groupIds: number[] }, caller: Caller): Promise<EntryNames> => {
    const [named, namedGroups] = await Promise.all([users.users(userIds, caller), groups.groups(groupIds)]);
    return {
      users: new Map([...named].map(([id, user]) => [id, user.name])),
      groups: new Map([...namedGroups].map(([id, group]) => [id, group.name])),
    };
  };
  return {
    protectedBranches,
    pushEnvironment: async ({ project, repository, pusher }) =>
      preReceiveHook.environment(
        await protectedBranches.pushPolicy({
          projectId: project.id,
          pusher: await protectedBranches.actorOf({
            projectId: project.id,
            userId: pusher.userId,
            accessLevel: project.accessLevel,
            isAdmin: project.isAdmin,
          }),
          defaultBranch: await repository.git.headBranch(),
        }),
      ),
    routes: [createRouter(protectedBranchesRoutes, { access: deps.access, protectedBranches, entryNames })],
    rpcs: [protectedBranchesGrpc({ orm: deps.orm, access: deps.access, protectedBranches, logger: deps.logger })],
    start: () => preReceiveHook.install(),
  };
}
