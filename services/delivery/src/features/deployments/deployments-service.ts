import { actorOf, type AuthenticatedCaller } from '@platform/auth';
import { FieldValidationError, NotFoundError } from '@platform/errors';
import type { EntityManager, Page, PageWindow } from '@platform/db';
import { deliveryEvents } from '@platform/delivery-client';
import type { ProjectAccess } from '@platform/identity-client';
import type { DeploymentStatus } from './deployment.entity.ts';
import type { DeploymentFilter, DeploymentOrder, PgDeploymentStore, PlacedDeployment } from './deployments-store.ts';
import { environmentEventData, newEnvironment } from './environments-service.ts';
import type { DeployedMergeRequests, DeployedMergeRequestsPage, ProjectCommits } from '@platform/review-client';

/**
 * The statuses a deployment may move to from each status, as GitLab's deployment state machine
 * allows (`run`, `succeed`, `drop`, `cancel`); finished deployments keep their status.
 */
const NEXT_STATUSES: Record<DeploymentStatus, readonly DeploymentStatus[]> = {
  created: ['running', 'success', 'failed', 'canceled'],
  running: ['success', 'failed', 'canceled'],
  success: [],
  failed: [],
  canceled: [],
};

/** The state machine's event for reaching a status, as GitLab's refusal names it. */
const TRANSITION_EVENTS: Record<DeploymentStatus, string> = {
  created: 'create',
  running: 'run',
  success: 'succeed',
  failed: 'drop',
  canceled: 'cancel',
};

export function deploymentEventData(project: ProjectAccess, placed: PlacedDeployment & { previousSha: string }) {
  const { deployment, environment } = placed;
  return {
    projectId: project.id,
    projectPath: project.pathWithNamespace,
    deploymentId: deployment.id,
    iid: deployment.iid,
    environmentId: environment.id,
    environmentName: environment.name,
    ref: deployment.ref,
    sha: deployment.sha,
    tag: deployment.tag,
    status: deployment.status,
    userId: deployment.userId ?? 0,
    createdAt: deployment.createdAt.toISOString(),
    finishedAt: deployment.finishedAt?.toISOString() ?? '',
    previousSha: placed.previousSha,
    environmentTier: environment.tier,
    environmentSlug: environment.slug,
    environmentExternalUrl: environment.externalUrl ?? '',
  };
}

export class DeploymentsService {
  readonly #em: EntityManager;
  readonly #store: PgDeploymentStore;
  readonly #mergeRequests: DeployedMergeRequests;
  readonly #commits: ProjectCommits;

  constructor(deps: { em: EntityManager; store: PgDeploymentStore; mergeRequests: DeployedMergeRequests; commits: ProjectCommits }) {
    this.#em = deps.em;
    this.#store = deps.store;
    this.#mergeRequests = deps.mergeRequests;
    this.#commits = deps.commits;
  }

  list(
    project: ProjectAccess,
    options: { filter: DeploymentFilter; order: { by: DeploymentOrder; sort: 'asc' | 'desc' }; window: PageWindow },
  ): Promise<Page<PlacedDeployment>> {
    return this.#store.list(project.id, options);
  }

  /**
   * The merge requests a deployment shipped, as review lists them for the caller: merged between
   * the environment's previous successful deployment and this one. GitLab links them when a
   * deployment succeeds, so a deployment that did not succeed shipped none.
   */
  async mergeRequests(
    project: ProjectAccess,
    id: number,
    options: { caller: AuthenticatedCaller; parameters: Record<string, string> },
  ): Promise<DeployedMergeRequestsPage> {
    const { deployment } = await this.get(project, id);
    if (deployment.status !== 'success') return { items: [], total: 0 };
    const previous = await this.#store.previousSuccessful(deployment);
    return this.#mergeRequests.list({
      caller: options.caller,
      projectId: project.id,
      sha: deployment.sha,
      previousSha: previous?.sha ?? '',
      parameters: options.parameters,
    });
  }

  async get(project: ProjectAccess, id: number): Promise<PlacedDeployment> {
    const placed = await this.#store.get(project.id, id);
    if (!placed) throw new NotFoundError('Deployment');
    return placed;
  }

  /**
   * Records a deployment of a commit of the project's repository; its environment is created by
   * its first deployment. As GitLab, the ref is checked first, then the sha, and nothing is
   * recorded for either that names no commit; when review cannot say, nothing is recorded either.
   */
  async create(
    project: ProjectAccess,
    options: { environment: string; ref: string; sha: string; tag: boolean; status: DeploymentStatus; caller: AuthenticatedCaller },
  ): Promise<PlacedDeployment> {
    const [refCommit, shaCommit] = await this.#commits.resolve({
      caller: options.caller,
      projectId: project.id,
      revisions: [options.ref, options.sha],
    });
    if (!refCommit) throw new FieldValidationError({ ref: ['The branch or tag does not exist'] });
    if (!shaCommit) throw new FieldValidationError({ sha: ['The commit does not exist'] });
    return this.#em.transactional(() =>
      this.#store.create({
        projectId: project.id,
        environment: newEnvironment(project, { name: options.environment }),
        deployment: {
          ref: options.ref,
          sha: options.sha,
          tag: options.tag,
          status: options.status,
          userId: options.caller.userId,
          userUsername: options.caller.username,
          userName: options.caller.name,
        },
        events: (placed) => [
          ...(placed.environmentCreated
            ? [
                deliveryEvents.environmentCreated.event({
                  aggregateId: project.id,
                  data: environmentEventData(project, placed.environment),
                }),
              ]
            : []),
          deliveryEvents.deploymentCreated.event({ aggregateId: project.id, data: deploymentEventData(project, placed) }),
        ],
        actor: actorOf(options.caller),
      }),
    );
  }

  /** Moves a deployment to `status` when its state machine allows it; 400 naming the transition otherwise. */
  async updateStatus(
    project: ProjectAccess,
    id: number,
    options: { status: DeploymentStatus; caller: AuthenticatedCaller },
  ): Promise<PlacedDeployment> {
    const { deployment } = await this.get(project, id);
    const refused = () => new FieldValidationError({ status: [`cannot transition via "${TRANSITION_EVENTS[options.status]}"`] });
    if (!NEXT_STATUSES[deployment.status].includes(options.status)) throw refused();
    const updated = await this.#em.transactional(() =>
      this.#store.updateStatus({
        target: deployment,
        status: options.status,
        events: (placed) => [
          deliveryEvents.deploymentUpdated.event({ aggregateId: project.id, data: deploymentEventData(project, placed) }),
        ],
        actor: actorOf(options.caller),
      }),
    );
    // Another request changed the status first: judge the transition against that one.
    if (!updated) return this.updateStatus(project, id, options);
    return updated;
  }
}
