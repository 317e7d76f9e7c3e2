import type { EntityManager } from '@platform/db';
import type { EventActor, OutgoingEvent } from '@platform/events';
import { recordEvent } from '@platform/events/database';
import { AlertIntegration, type IntegrationType } from './integration.entity.ts';

export type NewIntegration = Pick<
  AlertIntegration,
  'projectId' | 'name' | 'integrationType' | 'active' | 'endpointIdentifier' | 'tokenDigest'
>;

export class PgIntegrationStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  /** A project's integrations, oldest first. */
  list(projectId: number): Promise<AlertIntegration[]> {
    return this.#em.find(AlertIntegration, { projectId }, { orderBy: { id: 'asc' } });
  }

  find(projectId: number, id: number): Promise<AlertIntegration | null> {
    return this.#em.findOne(AlertIntegration, { id, projectId });
  }

  /** The project's oldest integration of a type: the generic endpoint (`notify.json`) or the Prometheus one. */
  firstOfType(projectId: number, type: IntegrationType): Promise<AlertIntegration | null> {
    return this.#em.findOne(AlertIntegration, { projectId, integrationType: type }, { orderBy: { id: 'asc' } });
  }

  byEndpoint(projectId: number, endpointIdentifier: string): Promise<AlertIntegration | null> {
    return this.#em.findOne(AlertIntegration, { projectId, endpointIdentifier, integrationType: 'http' });
  }

  /**
   * Runs `change` in the caller's transaction, holding the project's integration lock, so that
   * the checks it makes (one endpoint per kind, one kind active) hold when it commits; records `events`.
   */
  async changeLocked<Result>(options: {
    projectId: number;
    actor: EventActor | null;
    change: (tx: IntegrationTransaction) => Promise<{ result: Result; events: OutgoingEvent[] }>;
  }): Promise<Result> {
    const em = this.#em;
    await em.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`alert_integrations:${options.projectId}`]);
    const { result, events } = await options.change(new IntegrationTransaction(em, options.projectId));
    for (const event of events) recordEvent(em, { ...event, actor: options.actor });
    await em.flush();
    return result;
  }
}

/** What a locked change of a project's integrations can read and write. */
export class IntegrationTransaction {
  readonly #em: EntityManager;
  readonly #projectId: number;

  constructor(em: EntityManager, projectId: number) {
    this.#em = em;
    this.#projectId = projectId;
  }

  list(): Promise<AlertIntegration[]> {
    return this.#em.find(AlertIntegration, { projectId: this.#projectId }, { orderBy: { id: 'asc' } });
  }

  async insert(integration: NewIntegration): Promise<AlertIntegration> {
    const now = new Date();
    const created = this.#em.create(AlertIntegration, { ...integration, createdAt: now, updatedAt: now });
    await this.#em.flush();
    return created;
  }

  /** `integration` is one that `list` returned. */
  async update(
    integration: AlertIntegration,
    changes: Partial<Pick<AlertIntegration, 'name' | 'active' | 'tokenDigest'>>,
  ): Promise<AlertIntegration> {
    this.#em.assign(integration, { ...changes, updatedAt: new Date() });
    await this.#em.flush();
    return integration;
  }

  async remove(integration: AlertIntegration): Promise<void> {
    await this.#em.nativeDelete(AlertIntegration, { id: integration.id });
  }
}
