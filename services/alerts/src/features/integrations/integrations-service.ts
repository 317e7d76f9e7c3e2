import { actorOf, type AuthenticatedCaller } from '@platform/auth';
import { NotFoundError, UnprocessableError } from '@platform/errors';
import { alertsEvents } from '@platform/alerts-client';
import type { EntityManager } from '@platform/db';
import type { ProjectAccess } from '@platform/identity-client';
import type { AlertsTier } from './alerts-tier.ts';
import type { AlertIntegration, IntegrationType } from './integration.entity.ts';
import { keyDigest, keyMatches, newEndpointIdentifier, newIntegrationKey } from './integration-keys.ts';
import type { IntegrationTransaction, PgIntegrationStore } from './integrations-store.ts';

const KIND_NAMES: Record<IntegrationType, string> = { http: 'HTTP endpoint', prometheus: 'Prometheus endpoint' };

/** An integration with the key it was just given: shown once, on create and on reset. */
export interface IntegrationWithKey {
  integration: AlertIntegration;
  key: string;
}

/** Where an intake request arrived, naming the integration it is meant for. */
export type IntakeEndpoint = { kind: 'generic' } | { kind: 'identified'; endpointIdentifier: string } | { kind: 'prometheus' };

function eventData(integration: AlertIntegration, project: ProjectAccess) {
  return {
    projectId: integration.projectId,
    integrationId: integration.id,
    name: integration.name,
    type: integration.integrationType,
    active: integration.active,
    projectPath: project.pathWithNamespace,
  };
}

/** A project's alert integrations: what maintainers configure, and the keys intake checks. */
export class IntegrationsService {
  readonly #em: EntityManager;
  readonly #store: PgIntegrationStore;
  readonly #tier: AlertsTier;

  constructor(options: { em: EntityManager; store: PgIntegrationStore; tier: AlertsTier }) {
    this.#em = options.em;
    this.#store = options.store;
    this.#tier = options.tier;
  }

  list(project: ProjectAccess): Promise<AlertIntegration[]> {
    return this.#store.list(project.id);
  }

  async create(
    project: ProjectAccess,
    caller: AuthenticatedCaller,
    input: { name: string; type: IntegrationType; active: boolean },
  ): Promise<IntegrationWithKey> {
    const key = newIntegrationKey();
    return this.#em.transactional(() =>
      this.#store.changeLocked({
        projectId: project.id,
        actor: actorOf(caller),
        change: async (tx) => {
          const existing = await tx.list();
          if (input.type === 'prometheus' && existing.some((integration) => integration.integrationType === 'prometheus')) {
            throw new UnprocessableError('Multiple Prometheus integrations are not supported for this project');
          }
          if (input.type === 'http' && this.#tier === 'free' && existing.some((integration) => integration.integrationType === 'http')) {
            throw new UnprocessableError('Multiple HTTP integrations are not supported for this project');
          }
          if (input.active) refuseWhileOtherKindActive(existing, input.type);
          const integration = await tx.insert({
            projectId: project.id,
            name: input.name,
            integrationType: input.type,
            active: input.active,
            endpointIdentifier: newEndpointIdentifier(),
            tokenDigest: keyDigest(key),
          });
          const events = [
            alertsEvents.integrationCreated.event({ aggregateId: project.id, data: { integration: eventData(integration, project) } }),
          ];
          return { result: { integration, key }, events };
        },
      }),
    );
  }

  async update(
    project: ProjectAccess,
    caller: AuthenticatedCaller,
    options: { id: number; name?: string | undefined; active?: boolean | undefined },
  ): Promise<AlertIntegration> {
    return this.#em.transactional(() =>
      this.#store.changeLocked({
        projectId: project.id,
        actor: actorOf(caller),
        change: async (tx) => {
          const existing = await tx.list();
          const integration = existingOne(existing, options.id);
          const wasActive = integration.active;
          if (options.active && !wasActive) refuseWhileOtherKindActive(existing, integration.integrationType);
          await tx.update(integration, {
            ...(options.name === undefined ? {} : { name: options.name }),
            ...(options.active === undefined ? {} : { active: options.active }),
          });
          const data = { integration: eventData(integration, project), wasActive };
          return { result: integration, events: [alertsEvents.integrationUpdated.event({ aggregateId: project.id, data })] };
        },
      }),
    );
  }

  async delete(project: ProjectAccess, caller: AuthenticatedCaller, id: number): Promise<void> {
    await this.#em.transactional(() =>
      this.#store.changeLocked({
        projectId: project.id,
        actor: actorOf(caller),
        change: async (tx: IntegrationTransaction) => {
          const integration = existingOne(await tx.list(), id);
          await tx.remove(integration);
          const data = { integration: eventData(integration, project) };
          return { result: undefined, events: [alertsEvents.integrationDeleted.event({ aggregateId: project.id, data })] };
        },
      }),
    );
  }

  async resetToken(project: ProjectAccess, caller: AuthenticatedCaller, id: number): Promise<IntegrationWithKey> {
    const key = newIntegrationKey();
    return this.#em.transactional(() =>
      this.#store.changeLocked({
        projectId: project.id,
        actor: actorOf(caller),
        change: async (tx) => {
          const integration = existingOne(await tx.list(), id);
          await tx.update(integration, { tokenDigest: keyDigest(key) });
          const data = { integration: eventData(integration, project) };
          return { result: { integration, key }, events: [alertsEvents.integrationTokenReset.event({ aggregateId: project.id, data })] };
        },
      }),
    );
  }

  async get(project: ProjectAccess, id: number): Promise<AlertIntegration> {
    const integration = await this.#store.find(project.id, id);
    if (!integration) throw new NotFoundError('Integration');
    return integration;
  }

  /**
   * The integration an intake request is meant for, if the endpoint exists in this tier: the
   * generic endpoint is the project's oldest HTTP integration; identified endpoints are paid.
   */
  async forEndpoint(projectId: number, endpoint: IntakeEndpoint): Promise<AlertIntegration | null> {
    if (endpoint.kind === 'prometheus') return this.#store.firstOfType(projectId, 'prometheus');
    if (endpoint.kind === 'generic') return this.#store.firstOfType(projectId, 'http');
    if (this.#tier === 'free') return null;
    return this.#store.byEndpoint(projectId, endpoint.endpointIdentifier);
  }

  /** Whether an active integration accepts `key`. */
  accepts(integration: AlertIntegration, key: string): boolean {
    return integration.active && keyMatches(key, integration.tokenDigest);
  }
}

function existingOne(integrations: AlertIntegration[], id: number): AlertIntegration {
  const found = integrations.find((integration) => integration.id === id);
  if (!found) throw new NotFoundError('Integration');
  return found;
}

/** Only one of the generic HTTP endpoint and the Prometheus endpoint may be active: nothing is deactivated silently. */
function refuseWhileOtherKindActive(integrations: AlertIntegration[], type: IntegrationType): void {
  const active = integrations.find((integration) => integration.active && integration.integrationType !== type);
  if (!active) return;
  throw new UnprocessableError(
    `The ${KIND_NAMES[active.integrationType]} '${active.name}' is active: deactivate it before activating a ${KIND_NAMES[type]}`,
  );
}
