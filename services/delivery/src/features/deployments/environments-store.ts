import { LockMode, type FilterQuery } from '@mikro-orm/core';
import { sql } from 'kysely';
import { findPage, likePattern, translateDbError, type EntityManager, type Page, type PageWindow } from '@platform/db';
import type { EventActor, OutgoingEvent } from '@platform/events';
import { recordEvent } from '@platform/events/database';
import { Deployment } from './deployment.entity.ts';
import { Environment, type EnvironmentState, type EnvironmentTier } from './environment.entity.ts';

export interface EnvironmentFilter {
  name?: string | undefined;
  /** Part of the name, any case. */
  search?: string | undefined;
  states?: EnvironmentState[] | undefined;
}

export type NewEnvironment = Pick<Environment, 'projectId' | 'name' | 'slug' | 'externalUrl' | 'tier'>;

/** What a change writes: the environment's new values and the events saying so. */
export interface EnvironmentChange {
  changes: Partial<{ externalUrl: string | null; tier: EnvironmentTier; state: EnvironmentState }>;
  events: (environment: Environment) => OutgoingEvent[];
  actor: EventActor | null;
}

/** `%` and `_` match themselves in a search. */

export const ENVIRONMENT_NAME_TAKEN = 'has already been taken';

export class PgEnvironmentStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  list(projectId: number, filter: EnvironmentFilter, window: PageWindow): Promise<Page<Environment>> {
    const where: FilterQuery<Environment> = { projectId };
    if (filter.name !== undefined) where.name = filter.name;
    if (filter.search !== undefined) where.name = { $ilike: likePattern(filter.search) };
    if (filter.states) where.state = { $in: filter.states };
    return findPage(this.#em, Environment, where, { orderBy: { id: 'asc' }, window });
  }

  get(projectId: number, id: number): Promise<Environment | null> {
    return this.#em.findOne(Environment, { projectId, id });
  }

  /** Each environment's latest deployment, for environment views. */
  async lastDeployments(environmentIds: number[]): Promise<Map<number, Deployment>> {
    if (environmentIds.length === 0) return new Map();
    const em = this.#em;
    const { rows } = await sql<{ id: string }>`select distinct on (environment_id) id from deployments
      where environment_id = any(${environmentIds}::bigint[]) order by environment_id, id desc`.execute(em.getKysely());
    const deployments = await em.find(Deployment, { id: { $in: rows.map((row) => Number(row.id)) } });
    return new Map(deployments.map((deployment) => [deployment.environmentId, deployment]));
  }

  async create(options: { environment: NewEnvironment; events: (created: Environment) => OutgoingEvent[]; actor: EventActor | null }) {
    const em = this.#em;
    try {
      const now = new Date();
      const created = em.create(Environment, { ...options.environment, state: 'available', createdAt: now, updatedAt: now });
      await em.flush();
      for (const event of options.events(created)) recordEvent(em, { ...event, actor: options.actor });
      return created;
    } catch (error) {
      throw translateDbError(error, { conflict: ENVIRONMENT_NAME_TAKEN });
    }
  }

  async update(target: Environment, change: EnvironmentChange): Promise<Environment> {
    const em = this.#em;
    const environment = await em.findOneOrFail(Environment, { id: target.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    em.assign(environment, { ...change.changes, updatedAt: new Date() });
    for (const event of change.events(environment)) recordEvent(em, { ...event, actor: change.actor });
    return environment;
  }

  /** Removes the environment and its deployments. */
  async delete(target: Environment, options: { events: OutgoingEvent[]; actor: EventActor | null }): Promise<void> {
    await this.#em.nativeDelete(Environment, { id: target.id });
    for (const event of options.events) recordEvent(this.#em, { ...event, actor: options.actor });
  }
}
