import { z } from 'zod';
import type { AdministratorCheck, AuthenticatedCaller, Caller } from '@platform/auth';
import { grpcAddressFromEnv } from '@platform/config';
import { ForbiddenError, NotFoundError } from '@platform/errors';
import { callUnary, channelState, CLIENT_CHANNEL_OPTIONS, createChannelCredentials, internalClientOptions } from '@platform/grpc';
import { IdentityServiceClient, Visibility, type ProjectSummary } from '@platform/proto/identity/v1';

/** What a service that asks identity about access reads from its environment. */
export const identityClientConfig = z.object({
  IDENTITY_GRPC_ADDRESS: grpcAddressFromEnv
    .default('127.0.0.1:50051')
    .describe(
      "identity's gRPC address, or its replicas' IPv4 addresses comma-separated (calls are balanced round-robin, and one that met a replica going away is sent again)",
    ),
});

export type AccessResource = 'group' | 'project';

export interface AccessRequirement {
  resource: AccessResource;
  /** Integer id or full path, as the API received it. */
  idOrPath: string;
  /** Whom the request acts for; identity learns it from the call's signed credentials only. */
  caller: Caller;
  /** An `ACCESS_LEVEL`; `NO_ACCESS` only asks whether the caller may see it. */
  minimumLevel: number;
}

export type ProjectVisibility = 'private' | 'internal' | 'public';

/** GitLab's project `merge_method`: a merge commit, a merge commit of a rebased source, or fast-forward only. */
export type MergeMethod = 'merge' | 'rebase_merge' | 'ff';

function mergeMethodOf(value: string): MergeMethod {
  return value === 'rebase_merge' || value === 'ff' ? value : 'merge';
}

/** A group or project a caller may act on, named as events name it. */
export interface AccessibleResource {
  id: number;
  /** The group's full path, or the project's path with its namespace. */
  fullPath: string;
}

/** A project as a caller sees it, with the caller's rights there. */
export interface ProjectAccess {
  id: number;
  pathWithNamespace: string;
  visibility: ProjectVisibility;
  webUrl: string;
  defaultBranch: string;
  /** The project's namespace and its ancestors' ids, top-level first, for group-wide queries. */
  namespaceIds: number[];
  /** The caller's access level from memberships and shares; 0 for none. */
  accessLevel: number;
  /** Administrators may do anything, whatever their access level. */
  isAdmin: boolean;
  /** How its merge requests are merged: GitLab's `merge_method`. */
  mergeMethod: MergeMethod;
  /** The project it was forked from; null when it is no fork. */
  forkedFromProjectId: number | null;
  /** An archived project is read-only: nothing is pushed or written to its repository. */
  archived: boolean;
  /** GitLab's `only_allow_merge_if_pipeline_succeeds`: merge requests merge only once their head pipeline succeeded. */
  onlyAllowMergeIfPipelineSucceeds: boolean;
  /** GitLab's `allow_merge_on_skipped_pipeline`: a skipped head pipeline counts as succeeded where one must succeed. */
  allowMergeOnSkippedPipeline: boolean;
  /** GitLab's `only_allow_merge_if_all_discussions_are_resolved`: merge requests merge only once no resolvable thread is open. */
  onlyAllowMergeIfAllDiscussionsAreResolved: boolean;
}

/** Where a project sits now: what services that keep a copy of its path refresh after a move. */
export interface ProjectPlacement {
  pathWithNamespace: string;
  /** Its namespace and the namespace's ancestors' ids, top-level first. */
  namespaceIds: number[];
  /** The project it was forked from; null when it is no fork. */
  forkedFromProjectId: number | null;
}

/** Whether a user may act on a group or project, and whether a caller is still an administrator; identity owns the answers. */
export interface IdentityAccess extends AdministratorCheck {
  /**
   * The id of the group or project behind `idOrPath` when the user has at least `minimumLevel`
   * there. NotFoundError when it does not exist or the user may not see it; ForbiddenError otherwise.
   */
  require(requirement: AccessRequirement): Promise<number>;
  /** `require`, answering the group's or project's full path too. */
  requireResource(requirement: AccessRequirement): Promise<AccessibleResource>;
  /**
   * The project behind `idOrPath` as the caller sees it, for services that weigh the rights
   * themselves (git reads depend on visibility too). NotFoundError when it does not exist or the
   * caller may not see it.
   */
  project(options: { idOrPath: string; caller: Caller }): Promise<ProjectAccess>;
  /** Where a project is now, asked on the service's own behalf; undefined once it is deleted. */
  projectPlacement(projectId: number): Promise<ProjectPlacement | undefined>;
  /** The connection's state, for readiness reports (not a readiness condition). */
  channelState(): string;
  close(): void;
}

/**
 * The client as a feature of the service runtime (`@platform/service`): its channel's state in
 * readiness, identity's confirmation of administrators for administrator-only routes, closed
 * once the servers stopped.
 */
export function identityAccessFeature(access: IdentityAccess) {
  return {
    administrators: access,
    readinessChecks: { identityChannel: async () => access.channelState() },
    stop: () => access.close(),
  };
}

const VISIBILITIES: Partial<Record<Visibility, ProjectVisibility>> = {
  [Visibility.VISIBILITY_PRIVATE]: 'private',
  [Visibility.VISIBILITY_INTERNAL]: 'internal',
  [Visibility.VISIBILITY_PUBLIC]: 'public',
};

function projectAccessOf(project: ProjectSummary, accessLevel: number, isAdmin: boolean): ProjectAccess {
  return {
    id: project.id,
    pathWithNamespace: project.pathWithNamespace,
    visibility: VISIBILITIES[project.visibility] ?? 'private',
    webUrl: project.webUrl,
    defaultBranch: project.defaultBranch,
    namespaceIds: project.namespaceAncestorIds,
    accessLevel,
    isAdmin,
    mergeMethod: mergeMethodOf(project.mergeMethod),
    forkedFromProjectId: project.forkedFromProjectId || null,
    archived: project.archived,
    onlyAllowMergeIfPipelineSucceeds: project.onlyAllowMergeIfPipelineSucceeds,
    allowMergeOnSkippedPipeline: project.allowMergeOnSkippedPipeline,
    onlyAllowMergeIfAllDiscussionsAreResolved: project.onlyAllowMergeIfAllDiscussionsAreResolved,
  };
}

/** Asks identity's CheckAccess over gRPC. */
export class GrpcIdentityAccess implements IdentityAccess {
  readonly #client: IdentityServiceClient;

  constructor(options: { address: string; internalSecret: string }) {
    this.#client = new IdentityServiceClient(options.address, createChannelCredentials(), {
      ...CLIENT_CHANNEL_OPTIONS,
      ...internalClientOptions({ internalSecret: options.internalSecret }),
    });
  }

  async require(requirement: AccessRequirement): Promise<number> {
    return (await this.requireResource(requirement)).id;
  }

  async requireResource(requirement: AccessRequirement): Promise<AccessibleResource> {
    const response = await callUnary(
      this.#client.checkAccess.bind(this.#client),
      {
        minAccessLevel: requirement.minimumLevel,
        ...(requirement.resource === 'group' ? { groupIdOrPath: requirement.idOrPath } : { projectIdOrPath: requirement.idOrPath }),
      },
      { caller: requirement.caller },
    );
    if (!response.allowed) throw new ForbiddenError();
    const resource =
      requirement.resource === 'group'
        ? response.group && { id: response.group.id, fullPath: response.group.fullPath }
        : response.project && { id: response.project.id, fullPath: response.project.pathWithNamespace };
    if (!resource) throw new Error(`CheckAccess answered without the ${requirement.resource}`);
    return resource;
  }

  async project(options: { idOrPath: string; caller: Caller }): Promise<ProjectAccess> {
    const response = await callUnary(
      this.#client.checkAccess.bind(this.#client),
      { minAccessLevel: 0, projectIdOrPath: options.idOrPath },
      { caller: options.caller },
    );
    if (!response.project) throw new Error('CheckAccess answered without the project');
    return projectAccessOf(response.project, response.accessLevel, response.isAdmin);
  }

  async projectPlacement(projectId: number): Promise<ProjectPlacement | undefined> {
    try {
      const { project } = await callUnary(this.#client.resolveProject.bind(this.#client), { idOrPath: String(projectId) });
      return (
        project && {
          pathWithNamespace: project.pathWithNamespace,
          namespaceIds: project.namespaceAncestorIds,
          forkedFromProjectId: project.forkedFromProjectId || null,
        }
      );
    } catch (error) {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    }
  }

  async isAdministrator(caller: AuthenticatedCaller): Promise<boolean> {
    const response = await callUnary(this.#client.checkAdministrator.bind(this.#client), {}, { caller });
    return response.isAdministrator;
  }

  channelState(): string {
    return channelState(this.#client);
  }

  close(): void {
    this.#client.close();
  }
}

/** Groups and projects with their members' access levels, held in memory: for unit tests. */
export class FakeIdentityAccess implements IdentityAccess {
  #resources: Array<{
    resource: AccessResource;
    id: number;
    path: string;
    isPublic: boolean;
    levels: Map<number, number>;
    namespaceIds: number[];
    archived: boolean;
    onlyAllowMergeIfPipelineSucceeds: boolean;
    allowMergeOnSkippedPipeline: boolean;
    onlyAllowMergeIfAllDiscussionsAreResolved: boolean;
  }> = [];

  /**
   * Adds a group or project; `levels` maps user ids to their access level there. A public one is
   * visible to everyone (level 0 for non-members). A project's `namespaceIds` are its group and
   * the group's ancestors, top-level first. An `archived` project is read-only.
   */
  add(options: {
    resource: AccessResource;
    id: number;
    path: string;
    isPublic?: boolean;
    levels?: Record<number, number>;
    namespaceIds?: number[];
    archived?: boolean;
    onlyAllowMergeIfPipelineSucceeds?: boolean;
    allowMergeOnSkippedPipeline?: boolean;
    onlyAllowMergeIfAllDiscussionsAreResolved?: boolean;
  }): this {
    const levels = new Map(Object.entries(options.levels ?? {}).map(([userId, level]) => [Number(userId), level]));
    this.#resources.push({
      resource: options.resource,
      id: options.id,
      path: options.path,
      isPublic: options.isPublic ?? false,
      levels,
      namespaceIds: options.namespaceIds ?? [],
      archived: options.archived ?? false,
      onlyAllowMergeIfPipelineSucceeds: options.onlyAllowMergeIfPipelineSucceeds ?? false,
      allowMergeOnSkippedPipeline: options.allowMergeOnSkippedPipeline ?? false,
      onlyAllowMergeIfAllDiscussionsAreResolved: options.onlyAllowMergeIfAllDiscussionsAreResolved ?? false,
    });
    return this;
  }

  async project(options: { idOrPath: string; caller: Caller }): Promise<ProjectAccess> {
    const found = this.#resources.find(
      (entry) => entry.resource === 'project' && (String(entry.id) === options.idOrPath || entry.path === options.idOrPath),
    );
    const isAdmin = options.caller.kind === 'user' && options.caller.isAdmin;
    const accessLevel = options.caller.kind === 'user' ? found?.levels.get(options.caller.userId) : undefined;
    if (!found || (accessLevel === undefined && !found.isPublic && !isAdmin)) throw new NotFoundError('Project');
    return {
      id: found.id,
      pathWithNamespace: found.path,
      visibility: found.isPublic ? 'public' : 'private',
      webUrl: `http://localhost/${found.path}`,
      defaultBranch: 'main',
      namespaceIds: found.namespaceIds,
      accessLevel: accessLevel ?? 0,
      isAdmin,
      mergeMethod: 'merge',
      forkedFromProjectId: null,
      archived: found.archived,
      onlyAllowMergeIfPipelineSucceeds: found.onlyAllowMergeIfPipelineSucceeds,
      allowMergeOnSkippedPipeline: found.allowMergeOnSkippedPipeline,
      onlyAllowMergeIfAllDiscussionsAreResolved: found.onlyAllowMergeIfAllDiscussionsAreResolved,
    };
  }

  async projectPlacement(projectId: number): Promise<ProjectPlacement | undefined> {
    const found = this.#resources.find((entry) => entry.resource === 'project' && entry.id === projectId);
    return found && { pathWithNamespace: found.path, namespaceIds: found.namespaceIds, forkedFromProjectId: null };
  }

  /** Moves or renames a project, as a transfer in identity would. */
  move(projectId: number, placement: Pick<ProjectPlacement, 'pathWithNamespace' | 'namespaceIds'>): this {
    const found = this.#resources.find((entry) => entry.resource === 'project' && entry.id === projectId);
    if (!found) throw new Error(`no project ${projectId} to move`);
    found.path = placement.pathWithNamespace;
    found.namespaceIds = placement.namespaceIds;
    return this;
  }

  /** Forgets a project, as its deletion in identity would. */
  remove(projectId: number): this {
    this.#resources = this.#resources.filter((entry) => !(entry.resource === 'project' && entry.id === projectId));
    return this;
  }

  async require(requirement: AccessRequirement): Promise<number> {
    return (await this.requireResource(requirement)).id;
  }

  async requireResource(requirement: AccessRequirement): Promise<AccessibleResource> {
    const found = this.#resources.find(
      (entry) =>
        entry.resource === requirement.resource && (String(entry.id) === requirement.idOrPath || entry.path === requirement.idOrPath),
    );
    const userId = requirement.caller.kind === 'user' ? requirement.caller.userId : 0;
    const level = found?.levels.get(userId) ?? (found?.isPublic ? 0 : undefined);
    // Like identity, a resource the user has no access to at all is invisible, not forbidden.
    if (!found || level === undefined) throw new NotFoundError(requirement.resource === 'group' ? 'Group' : 'Project');
    if (level < requirement.minimumLevel) throw new ForbiddenError();
    return { id: found.id, fullPath: found.path };
  }

  /** The signed flag is the truth here: a fake has no users of its own. */
  async isAdministrator(caller: AuthenticatedCaller): Promise<boolean> {
    return caller.isAdmin;
  }

  channelState(): string {
    return 'in memory';
  }

  close(): void {}
}
