import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventActor } from '@platform/events';
import { recordEvent } from '@platform/events/database';
import { userDeletedEvent } from '../users/users.events.ts';
import type { UserStore } from '../users/users-store.ts';
import type { DeletedResources, ResourceBotStore } from './resource-bots-store.ts';

/**
 * A deleted project's or group's bots go with it, as GitLab's Projects::DestroyService and
 * Groups::DestroyService delete them through Users::DestroyService: each bot is deleted as a user
 * is (its contributions handed to the ghost user), its tokens with it.
 */
export class ResourceBots {
  readonly #em: EntityManager;
  readonly #bots: ResourceBotStore;
  readonly #users: UserStore;
  /** Domain of the ghost user's address, as the users feature has it. */
  readonly #ghostEmailDomain: string;

  constructor(options: { em: EntityManager; bots: ResourceBotStore; users: UserStore; externalUrl: string }) {
    this.#em = options.em;
    this.#bots = options.bots;
    this.#users = options.users;
    this.#ghostEmailDomain = `noreply.${new URL(options.externalUrl).hostname}`;
  }

  /**
   * Deletes the bots of these projects and groups in the caller's transaction, before their
   * memberships go; `identity.user.deleted` makes every gateway forget the bots' tokens. Answers
   * the bots' ids.
   */
  async removeOf(resources: DeletedResources, actor: EventActor | null): Promise<number[]> {
    const botIds = await this.#bots.botIdsOf(resources);
    if (botIds.length === 0) return [];
    return this.#em.transactional(async (em) => {
      const ghostUserId = (await this.#users.ghostUser(this.#ghostEmailDomain)).id;
      for (const bot of await this.#users.findByIds(botIds)) {
        recordEvent(em, { ...userDeletedEvent(bot, { hardDelete: false, ghostUserId }), actor });
        await this.#users.remove(bot);
      }
      return botIds;
    });
  }
}
