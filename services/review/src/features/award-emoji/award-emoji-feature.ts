import type { EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import type { Feature } from '@platform/service';
import type { MergeRequestsService } from '../merge-requests/merge-requests-service.ts';
import type { UserDirectory } from '../core/user-directory.ts';
import { awardEmojiEntities } from './award-emoji.entity.ts';
import { PgAwardEmojiStore } from './award-emoji-store.ts';
import { AwardEmojiService } from './award-emoji-service.ts';
import { awardEmojiRoutes } from './award-emoji-routes.ts';

export { awardEmojiEntities };

/** Emoji reactions to merge requests: `upvotes` / `downvotes` in their views, and the `my_reaction_emoji` filter. */
export function createAwardEmojiFeature(deps: {
  em: EntityManager;
  access: IdentityAccess;
  mergeRequests: MergeRequestsService;
  users: UserDirectory;
}): Feature {
  const awards = new AwardEmojiService({ store: new PgAwardEmojiStore(deps.em) });
  deps.mergeRequests.addFactsSource((mergeRequests) => awards.votes(mergeRequests));
  deps.mergeRequests.findReactionsWith((reaction) => awards.reactedTo(reaction));
  const { em: _em, ...routeDeps } = deps;
  return { routes: [createRouter(awardEmojiRoutes, { ...routeDeps, awards })] };
}
