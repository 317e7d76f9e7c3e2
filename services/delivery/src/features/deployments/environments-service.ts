import { actorOf, type AuthenticatedCaller } from '@platform/auth';
import { ConflictError, FieldValidationError, ForbiddenError, InputError, NotFoundError } from '@platform/errors';
import type { EntityManager, Page, PageWindow } from '@platform/db';
import { deliveryEvents } from '@platform/delivery-client';
import type { ProjectAccess } from '@platform/identity-client';
import type { Deployment } from './deployment.entity.ts';
import type { Environment, EnvironmentTier } from './environment.entity.ts';
import { environmentNameProblem, environmentSlug, guessTier } from './environment-naming.ts';
import type { EnvironmentFilter, PgEnvironmentStore } from './environments-store.ts';

/** The data of every environment event: the environment as it is after the change. */
export function environmentEventData(project: ProjectAccess, environment: Environment) {
  return {
    projectId: project.id,
    projectPath: project.pathWithNamespace,
    environmentId: environment.id,
    name: environment.name,
    state: environment.state,
    tier: environment.tier,
    externalUrl: environment.externalUrl ?? '',
  };
}

/** A new environment's columns from what the API was given, checked as GitLab checks them. */
export function newEnvironment(project: ProjectAccess, options: { name: string; externalUrl?: string | null; tier?: EnvironmentTier }) {
  const problem = environmentNameProblem(options.name);
  if (problem) throw new FieldValidationError({ name: [problem] });
  return {
    projectId: project.id,
    name: options.name,
    slug: environmentSlug(options.name),
    externalUrl: options.externalUrl ?? null,
    tier: options.tier ?? guessTier(options.name),
  };
}

export class EnvironmentsService {
  readonly #em: EntityManager;
  readonly #store: PgEnvironmentStore;

  constructor(deps: { em: EntityManager; store: PgEnvironmentStore }) {
    this.#em = deps.em;
    this.#store = deps.store;
  }

  list(project: ProjectAccess, filter: EnvironmentFilter, window: PageWindow): Promise<Page<Environment>> {
    if (filter.name !== undefined && filter.search !== undefined) throw new InputError('name, search are mutually exclusive');
    return this.#store.list(project.id, filter, window);
  }

  async get(project: ProjectAccess, id: number): Promise<{ environment: Environment; lastDeployment: Deployment | null }> {
    const environment = await this.#found(project, id);
    const last = await this.#store.lastDeployments([environment.id]);
    return { environment, lastDeployment: last.get(environment.id) ?? null };
  }

  async create(
    project: ProjectAccess,
    options: { name: string; externalUrl?: string | undefined; tier?: EnvironmentTier | undefined; caller: AuthenticatedCaller },
  ): Promise<Environment> {
    const environment = newEnvironment(project, {
      name: options.name,
      ...(options.externalUrl ? { externalUrl: options.externalUrl } : {}),
      ...(options.tier ? { tier: options.tier } : {}),
    });
    try {
      return await this.#em.transactional(() =>
        this.#store.create({
          environment,
          events: (created) => [
            deliveryEvents.environmentCreated.event({ aggregateId: project.id, data: environmentEventData(project, created) }),
          ],
          actor: actorOf(options.caller),
        }),
      );
    } catch (error) {
      if (error instanceof ConflictError) throw new FieldValidationError({ name: [error.message], slug: [error.message] });
      throw error;
    }
  }

  async update(
    project: ProjectAccess,
    id: number,
    options: { externalUrl?: string | null | undefined; tier?: EnvironmentTier | undefined; caller: AuthenticatedCaller },
  ): Promise<Environment> {
    const environment = await this.#found(project, id);
    return this.#em.transactional(() =>
      this.#store.update(environment, {
        changes: {
          ...(options.externalUrl !== undefined ? { externalUrl: options.externalUrl } : {}),
          ...(options.tier ? { tier: options.tier } : {}),
        },
        events: (updated) => [
          deliveryEvents.environmentUpdated.event({ aggregateId: project.id, data: environmentEventData(project, updated) }),
        ],
        actor: actorOf(options.caller),
      }),
    );
  }

  /** Stops an environment; with nothing running on it here, it is stopped at once. */
  async stop(project: ProjectAccess, id: number, caller: AuthenticatedCaller): Promise<Environment> {
    const environment = await this.#found(project, id);
    if (environment.state === 'stopped') return environment;
    return this.#em.transactional(() =>
      this.#store.update(environment, {
        changes: { state: 'stopped' },
        events: (stopped) => [
          deliveryEvents.environmentStopped.event({ aggregateId: project.id, data: environmentEventData(project, stopped) }),
        ],
        actor: actorOf(caller),
      }),
    );
  }

  /** GitLab deletes only stopped environments. */
  async delete(project: ProjectAccess, id: number, caller: AuthenticatedCaller): Promise<void> {
    const environment = await this.#found(project, id);
    if (environment.state !== 'stopped') throw new ForbiddenError();
    await this.#em.transactional(() =>
      this.#store.delete(environment, {
        events: [deliveryEvents.environmentDeleted.event({ aggregateId: project.id, data: environmentEventData(project, environment) })],
        actor: actorOf(caller),
      }),
    );
  }

  async #found(project: ProjectAccess, id: number): Promise<Environment> {
    const environment = await this.#store.get(project.id, id);
    if (!environment) throw new NotFoundError('Environment');
    return environment;
  }
}
