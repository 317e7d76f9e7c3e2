import { LockMode, type FilterQuery } from '@mikro-orm/core';
import { findPage, type EntityManager, type Page, type PageWindow } from '@platform/db';
import type { EventActor, OutgoingEvent } from '@platform/events';
import { recordEvent } from '@platform/events/database';
import { Deployment, type DeploymentStatus } from './deployment.entity.ts';
import { Environment } from './environment.entity.ts';
import type { NewEnvironment } from './environments-store.ts';

export type DeploymentOrder = 'id' | 'iid' | 'created_at' | 'updated_at' | 'ref';

const ORDER_COLUMNS = { id: 'id', iid: 'iid', created_at: 'createdAt', updated_at: 'updatedAt', ref: 'ref' } as const;

export interface DeploymentFilter {
  updatedAfter?: Date | undefined;
  updatedBefore?: Date | undefined;
  environmentName?: string | undefined;
  status?: DeploymentStatus | undefined;
}

export type NewDeployment = Pick<Deployment, 'ref' | 'sha' | 'tag' | 'status' | 'userId' | 'userUsername' | 'userName'>;

/** A deployment with the environment it went to. */
export interface PlacedDeployment {
  deployment: Deployment;
  environment: Environment;
}

export class PgDeploymentStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  async list(
    projectId: number,
    options: { filter: DeploymentFilter; order: { by: DeploymentOrder; sort: 'asc' | 'desc' }; window: PageWindow },
  ): Promise<Page<PlacedDeployment>> {
    const { filter } = options;
    const where: FilterQuery<Deployment> = { projectId };
    if (filter.updatedAfter || filter.updatedBefore) {
      where.updatedAt = {
        ...(filter.updatedAfter ? { $gt: filter.updatedAfter } : {}),
        ...(filter.updatedBefore ? { $lt: filter.updatedBefore } : {}),
      };
    }
    if (filter.status) where.status = filter.status;
    if (filter.environmentName !== undefined) {
      const environment = await this.#em.findOne(Environment, { projectId, name: filter.environmentName });
      if (!environment) return { items: [], total: 0, hasNext: false };
      where.environmentId = environment.id;
    }
    const column = ORDER_COLUMNS[options.order.by];
    const page = await findPage(this.#em, Deployment, where, {
      orderBy: { [column]: options.order.sort, ...(column === 'id' ? {} : { id: options.order.sort }) },
      window: options.window,
    });
    return { ...page, items: await this.#placed(page.items) };
  }

  async get(projectId: number, id: number): Promise<PlacedDeployment | null> {
    const deployment = await this.#em.findOne(Deployment, { projectId, id });
    return deployment ? (await this.#placed([deployment]))[0]! : null;
  }

  /** The environment's last successful deployment before `deployment` (by id, as GitLab orders them). */
  previousSuccessful(deployment: Deployment): Promise<Deployment | null> {
    return this.#em.findOne(
      Deployment,
      { environmentId: deployment.environmentId, status: 'success', id: { $lt: deployment.id } },
      { orderBy: { id: 'desc' } },
    );
  }

  /**
   * Records a deployment to the environment named `environment.name`, creating that environment
   * on its first deployment; the next iid of the project is taken in the caller's transaction.
   */
  async create(options: {
    projectId: number;
    environment: NewEnvironment;
    deployment: NewDeployment;
    events: (placed: PlacedDeployment & { environmentCreated: boolean; previousSha: string }) => OutgoingEvent[];
    actor: EventActor | null;
  }): Promise<PlacedDeployment> {
    const em = this.#em;
    const now = new Date();
    const inserted = await em.execute<Array<{ id: string }>>(
      `insert into environments (project_id, name, slug, external_url, tier, state, created_at, updated_at)
       values (?, ?, ?, ?, ?, 'available', ?, ?) on conflict (project_id, name) do nothing returning id`,
      [
        options.projectId,
        options.environment.name,
        options.environment.slug,
        options.environment.externalUrl,
        options.environment.tier,
        now,
        now,
      ],
    );
    const environment = await em.findOneOrFail(Environment, { projectId: options.projectId, name: options.environment.name });
    const [counter] = await em.execute<Array<{ last_iid: number }>>(
      `insert into deployment_iids (project_id, last_iid) values (?, 1)
       on conflict (project_id) do update set last_iid = deployment_iids.last_iid + 1 returning last_iid`,
      [options.projectId],
    );
    const finished = options.deployment.status !== 'created' && options.deployment.status !== 'running';
    const deployment = em.create(Deployment, {
      ...options.deployment,
      projectId: options.projectId,
      iid: counter!.last_iid,
      environmentId: environment.id,
      createdAt: now,
      updatedAt: now,
      finishedAt: finished ? now : null,
    });
    await em.flush();
    const previousSha = await this.#previousShaOnSuccess(deployment);
    for (const event of options.events({ deployment, environment, environmentCreated: inserted.length > 0, previousSha })) {
      recordEvent(em, { ...event, actor: options.actor });
    }
    return { deployment, environment };
  }

  /** Sets the status of a deployment whose status is still `expected`; answers null when it changed meanwhile. */
  async updateStatus(options: {
    target: Deployment;
    status: DeploymentStatus;
    events: (placed: PlacedDeployment & { previousSha: string }) => OutgoingEvent[];
    actor: EventActor | null;
  }): Promise<PlacedDeployment | null> {
    const em = this.#em;
    // Read before the locked read, which refreshes the target in place when it is the same entity.
    const expected = options.target.status;
    const deployment = await em.findOneOrFail(Deployment, { id: options.target.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (deployment.status !== expected) return null;
    const now = new Date();
    const finished = options.status !== 'created' && options.status !== 'running';
    em.assign(deployment, { status: options.status, updatedAt: now, ...(finished ? { finishedAt: now } : {}) });
    const environment = await em.findOneOrFail(Environment, { id: deployment.environmentId });
    const previousSha = await this.#previousShaOnSuccess(deployment);
    for (const event of options.events({ deployment, environment, previousSha })) recordEvent(em, { ...event, actor: options.actor });
    return { deployment, environment };
  }

  /** What a success event tells consumers: the sha deployed before, for the merge requests shipped in between. */
  async #previousShaOnSuccess(deployment: Deployment): Promise<string> {
    if (deployment.status !== 'success') return '';
    return (await this.previousSuccessful(deployment))?.sha ?? '';
  }

  async #placed(deployments: Deployment[]): Promise<PlacedDeployment[]> {
    const ids = [...new Set(deployments.map((deployment) => deployment.environmentId))];
    const environments = ids.length === 0 ? [] : await this.#em.find(Environment, { id: { $in: ids } });
    const byId = new Map(environments.map((environment) => [environment.id, environment]));
    return deployments.map((deployment) => ({ deployment, environment: byId.get(deployment.environmentId)! }));
  }
}
