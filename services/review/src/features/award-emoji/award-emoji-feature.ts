import type { EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import type { Feature } from '@platform/service';
import type { FactsSource, ReactionLookup } from '../merge-requests/merge-request-facts.ts';
import type { MergeRequestsService } from '../merge-requests/merge-requests-service.ts';
import type { UserDirectory } from '../core/user-directory.ts';
import { awardEmojiEntities } from './award-emoji.entity.ts';
import { PgAwardEmojiStore } from './award-emoji-store.ts';
import { AwardEmojiService } from './award-emoji-service.ts';
import { awardEmojiRoutes } from './award-emoji-routes.ts';

export { awardEmojiEntities };

export interface AwardEmojiFeature extends Feature {
  /** `upvotes` and `downvotes` of merge request views. */
  facts: FactsSource;
  /** Where the `my_reaction_emoji` filter finds reactions. */
  reactions: ReactionLookup;
}

/** Emoji reactions to merge requests: `upvotes` / `downvotes` in their views, and the `my_reaction_emoji` filter. */
export function createAwardEmojiFeature(deps: {
  em: EntityManager;
  access: IdentityAccess;
  mergeRequests: MergeRequestsService;
  users: UserDirectory;
}): AwardEmojiFeature {
  const awards = new AwardEmojiService({ store: new PgAwardEmojiStore(deps.em) });
  const { em: _em, ...routeDeps } = deps;
  return {
    facts: (mergeRequests) => awards.votes(mergeRequests),
    reactions: (reaction) => awards.reactedTo(reaction),
    routes: [createRouter(awardEmojiRoutes, { ...routeDeps, awards })],
  };
}
