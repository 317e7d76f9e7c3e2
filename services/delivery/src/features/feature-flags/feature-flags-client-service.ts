import { actorOf, type AuthenticatedCaller } from '@platform/auth';
import type { EntityManager } from '@platform/db';
import { deliveryEvents } from '@platform/delivery-client';
import type { ProjectAccess } from '@platform/identity-client';
import type { ClientAnswerChanges } from './client-answer-changes.ts';
import type { PgFeatureFlagsClientStore } from './feature-flags-client-store.ts';

/** The project's Unleash instance id: read (made on first use) and replaced. */
export class FeatureFlagsClientService {
  readonly #em: EntityManager;
  readonly #store: PgFeatureFlagsClientStore;
  readonly #changes: ClientAnswerChanges;

  constructor(deps: { em: EntityManager; store: PgFeatureFlagsClientStore; changes: ClientAnswerChanges }) {
    this.#em = deps.em;
    this.#store = deps.store;
    this.#changes = deps.changes;
  }

  tokenOf(project: ProjectAccess): Promise<string> {
    return this.#store.tokenOf(project.id);
  }

  /** A new instance id; this replica's Unleash clients are answered with it once it has committed. */
  async reset(project: ProjectAccess, caller: AuthenticatedCaller): Promise<string> {
    const token = await this.#em.transactional(() =>
      this.#store.reset(project.id, {
        events: [
          deliveryEvents.featureFlagsClientTokenReset.event({
            aggregateId: project.id,
            data: { projectId: project.id, projectPath: project.pathWithNamespace },
          }),
        ],
        actor: actorOf(caller),
      }),
    );
    this.#changes.changed(project.id);
    return token;
  }
}
