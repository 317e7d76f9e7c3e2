import { Router } from 'express';
import { actorOf, requireUser } from '@platform/auth';
import { asyncHandler, callerOf, pageParams, parseParams, requestParams, sendPage } from '@platform/http';
import type { NamespaceViewContext } from '../namespaces/namespace-views.ts';
import type { AccessPolicy } from './access-policy.ts';
import type { SourceType } from './member.entity.ts';
import type { MembersService } from './members-service.ts';
import { memberView } from './member-views.ts';
import { addMemberParams, memberListQuery, memberParams, updateMemberParams } from './members.schemas.ts';

const SOURCES = [
  ['groups', 'Group'],
  ['projects', 'Project'],
] as const satisfies ReadonlyArray<readonly [string, SourceType]>;

/** GitLab's member endpoints, the same for groups and projects; `/members/all` adds inherited members. */
export function membersRoutes(options: { members: MembersService; access: AccessPolicy; views: NamespaceViewContext }): Router {
  const { members, access, views } = options;
  const router = Router();

  for (const [prefix, type] of SOURCES) {
    for (const [suffix, inherited] of [
      ['members/all', true],
      ['members', false],
    ] as const) {
      router.get(
        `/api/v4/${prefix}/:id/${suffix}`,
        asyncHandler(async (req, res) => {
          const viewer = await access.viewerOf(callerOf(req));
          const query = parseParams(memberListQuery, requestParams(req));
          const page = pageParams(query);
          const result = await members.list({
            viewer,
            type,
            idOrPath: query.id,
            inherited,
            filter: {
              ...(query.query ? { query: query.query } : {}),
              ...(query.user_ids ? { userIds: query.user_ids } : {}),
              ...(query.skip_users ? { skipUserIds: query.skip_users } : {}),
            },
            page: { offset: page.offset, limit: page.perPage },
          });
          sendPage(req, res, { page, total: result.total, items: result.items.map((entry) => memberView(entry, views)) });
        }),
      );

      router.get(
        `/api/v4/${prefix}/:id/${suffix}/:user_id`,
        asyncHandler(async (req, res) => {
          const viewer = await access.viewerOf(callerOf(req));
          const { id, user_id: userId } = parseParams(memberParams, req.params);
          res.json(memberView(await members.get({ viewer, type, idOrPath: id, userId, inherited }), views));
        }),
      );
    }

    router.post(
      `/api/v4/${prefix}/:id/members`,
      asyncHandler(async (req, res) => {
        const caller = requireUser(callerOf(req));
        const input = parseParams(addMemberParams(type), requestParams(req));
        const added = await members.add({
          viewer: await access.viewerOf(caller),
          actor: actorOf(caller),
          type,
          idOrPath: input.id,
          user: input.user_id !== undefined ? { id: input.user_id } : { username: input.username ?? '' },
          accessLevel: input.access_level,
          expiresAt: input.expires_at ?? null,
        });
        res.status(201).json(memberView(added, views));
      }),
    );

    router.put(
      `/api/v4/${prefix}/:id/members/:user_id`,
      asyncHandler(async (req, res) => {
        const caller = requireUser(callerOf(req));
        const input = parseParams(updateMemberParams(type), requestParams(req));
        const updated = await members.update({
          viewer: await access.viewerOf(caller),
          actor: actorOf(caller),
          type,
          idOrPath: input.id,
          userId: input.user_id,
          accessLevel: input.access_level,
          ...(input.expires_at !== undefined ? { expiresAt: input.expires_at } : {}),
        });
        res.json(memberView(updated, views));
      }),
    );

    router.delete(
      `/api/v4/${prefix}/:id/members/:user_id`,
      asyncHandler(async (req, res) => {
        const caller = requireUser(callerOf(req));
        const { id, user_id: userId } = parseParams(memberParams, req.params);
        await members.remove({ viewer: await access.viewerOf(caller), actor: actorOf(caller), type, idOrPath: id, userId });
        res.status(204).end();
      }),
    );
  }

  return router;
}
