import { sql } from 'kysely';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '@platform/logger';
import { unaryHandler, type GrpcServiceBinding, type RpcScope } from '@platform/grpc';
import { inUnitOfWork, type Orm } from '@platform/db';
import {
  IdentityServiceService,
  type GetGroupMembersRequest,
  type GetGroupMembersResponse,
  type GetProjectAccessLevelsRequest,
  type GetProjectAccessLevelsResponse,
  type IdentityServiceServer,
} from '@platform/proto/identity/v1';
import { isAdmin, type AccessPolicy } from '../access/access-policy.ts';

/** Ids beyond 32 bits name nothing here and must not reach an integer column. */
const MAXIMUM_ID = 2_147_483_647;
/** At most this many groups or users per call: rules and CODEOWNERS name a handful. */
const MAXIMUM_IDS = 1_000;

/** Services ask these on their own behalf, to decide about users other than the caller. */
const MEMBERS_RPC_SCOPES: Record<'getGroupMembers' | 'getProjectAccessLevels', RpcScope> = {
  getGroupMembers: 'internal',
  getProjectAccessLevels: 'internal',
};

const validIds = (ids: number[]) => [...new Set(ids)].filter((id) => id > 0 && id <= MAXIMUM_ID).slice(0, MAXIMUM_IDS);

/** Who belongs to groups and what users may do in a project, for review's approval rules and code owners. */
export function membersGrpc(options: { orm: Orm; em: EntityManager; access: AccessPolicy; logger: Logger }): GrpcServiceBinding {
  const { orm, em, access, logger } = options;
  const implementation: Pick<IdentityServiceServer, 'getGroupMembers' | 'getProjectAccessLevels'> = {
    getGroupMembers: unaryHandler(logger, (request: GetGroupMembersRequest) =>
      inUnitOfWork(orm, async (): Promise<GetGroupMembersResponse> => {
        const groupIds = validIds(request.groupIds);
        if (groupIds.length === 0) return { groups: [] };
        const { rows } = await sql<{ group_id: number; user_ids: number[] | null }>`
          select n.id as group_id,
            array(select m.user_id from members m join users u on u.id = m.user_id
                  where m.source_type = 'Group' and m.source_id = n.id and m.requested_at is null
                    and (m.expires_at is null or m.expires_at > current_date) and u.state = 'active'
                  order by m.user_id) as user_ids
          from namespaces n where n.kind = 'group' and n.id = any(${groupIds}::integer[])`.execute(em.getKysely());
        return { groups: rows.map((row) => ({ groupId: Number(row.group_id), userIds: (row.user_ids ?? []).map(Number) })) };
      }),
    ),
    getProjectAccessLevels: unaryHandler(logger, (request: GetProjectAccessLevelsRequest) =>
      inUnitOfWork(orm, async (): Promise<GetProjectAccessLevelsResponse> => {
        const users = [];
        for (const userId of validIds(request.userIds)) {
          const viewer = await access.viewerFor(userId);
          const levels = await access.projectAccessLevels(viewer, request.projectId > MAXIMUM_ID ? [] : [request.projectId]);
          users.push({ userId, accessLevel: levels.get(request.projectId) ?? 0, isAdmin: isAdmin(viewer) });
        }
        return { users };
      }),
    ),
  };
  return { definition: IdentityServiceService, implementation, scopes: MEMBERS_RPC_SCOPES };
}
