import { z } from 'zod';
import { params, routesOf } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import type { MergeRequestsService } from '../merge-requests/merge-requests-service.ts';
import { readableMergeRequest } from '../merge-requests/merge-request-lookup.ts';
import type { UserDirectory } from '../core/user-directory.ts';
import { awardEmojiView } from './award-emoji-views.ts';
import type { AwardEmojiService } from './award-emoji-service.ts';

export interface AwardEmojiRouteDeps {
  access: IdentityAccess;
  mergeRequests: MergeRequestsService;
  awards: AwardEmojiService;
  users: UserDirectory;
}

const route = routesOf<AwardEmojiRouteDeps>('review');
const positive = () => params.integer().pipe(z.number().int().positive());
const perMergeRequest = { id: params.idOrPath(), merge_request_iid: positive() };

export const awardEmojiRoutes = [
  route.list({
    path: '/api/v4/projects/:id/merge_requests/:merge_request_iid/award_emoji',
    access: 'user',
    scope: 'read_api',
    input: z.object(perMergeRequest),
    handle: async ({ caller, input, deps, window }) => {
      const { mergeRequest } = await readableMergeRequest(deps, caller, input);
      const { items, total } = await deps.awards.list(mergeRequest, window);
      const users = await deps.users.users(
        items.map((award) => award.userId),
        caller,
      );
      return { items: items.map((award) => awardEmojiView(award, users)), total };
    },
  }),
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/merge_requests/:merge_request_iid/award_emoji/:award_id',
    access: 'user',
    scope: 'read_api',
    input: z.object({ ...perMergeRequest, award_id: positive() }),
    handle: async ({ caller, input, deps }) => {
      const { mergeRequest } = await readableMergeRequest(deps, caller, input);
      const award = await deps.awards.get(mergeRequest, input.award_id);
      return awardEmojiView(award, await deps.users.users([award.userId], caller));
    },
  }),
  route({
    method: 'POST',
    path: '/api/v4/projects/:id/merge_requests/:merge_request_iid/award_emoji',
    access: 'user',
    scope: 'api',
    status: 201,
    input: z.object({ ...perMergeRequest, name: z.string().max(255) }),
    handle: async ({ caller, input, deps }) => {
      const { project, mergeRequest } = await readableMergeRequest(deps, caller, input);
      const award = await deps.awards.award({ project, mergeRequest, caller, name: input.name });
      return awardEmojiView(award, await deps.users.users([award.userId], caller));
    },
  }),
  route({
    method: 'DELETE',
    path: '/api/v4/projects/:id/merge_requests/:merge_request_iid/award_emoji/:award_id',
    access: 'user',
    scope: 'api',
    status: 204,
    input: z.object({ ...perMergeRequest, award_id: positive() }),
    handle: async ({ caller, input, deps }) => {
      const { project, mergeRequest } = await readableMergeRequest(deps, caller, input);
      await deps.awards.remove({ project, mergeRequest, caller, awardId: input.award_id });
    },
  }),
];
