import type { EntityManager } from '@platform/db';
import { MergeRequestDeployment } from './merge-request-deployment.entity.ts';

/** Which deployments the merge request lists' `environment`, `deployed_after` and `deployed_before` ask for. */
export interface DeploymentFilter {
  environment?: string | undefined;
  deployedAfter?: Date | undefined;
  deployedBefore?: Date | undefined;
}

export class PgMergeRequestDeploymentStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  /** Records the merge requests one deployment shipped; recording them again changes nothing. */
  async record(options: { deploymentId: number; projectId: number; environmentName: string; deployedAt: Date; mergeRequestIds: number[] }) {
    if (options.mergeRequestIds.length === 0) return;
    await this.#em
      .createQueryBuilder(MergeRequestDeployment)
      .insert(
        options.mergeRequestIds.map((mergeRequestId) => ({
          mergeRequestId,
          projectId: options.projectId,
          deploymentId: options.deploymentId,
          environmentName: options.environmentName,
          deployedAt: options.deployedAt,
        })),
      )
      .onConflict(['mergeRequestId', 'deploymentId'])
      .ignore()
      .execute();
  }

  /** The merge requests shipped by a deployment that matches the filter. */
  async mergeRequestIds(filter: DeploymentFilter): Promise<number[]> {
    const where: Record<string, unknown> = {};
    if (filter.environment !== undefined) where.environmentName = filter.environment;
    if (filter.deployedAfter || filter.deployedBefore) {
      where.deployedAt = {
        ...(filter.deployedAfter ? { $gt: filter.deployedAfter } : {}),
        ...(filter.deployedBefore ? { $lt: filter.deployedBefore } : {}),
      };
    }
    const rows = await this.#em.find(MergeRequestDeployment, where, { fields: ['mergeRequestId'] });
    return [...new Set(rows.map((row) => row.mergeRequestId))];
  }
}
