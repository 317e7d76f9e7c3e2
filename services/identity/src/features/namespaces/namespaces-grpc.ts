import { deployTokenCovers, deployTokenOf } from '@platform/auth';
import type { Logger } from '@platform/logger';
import { unaryHandler, type GrpcServiceBinding, type RpcScope } from '@platform/grpc';
import { inUnitOfWork, type Orm } from '@platform/db';
import { InputError, NotFoundError } from '@platform/errors';
import {
  IdentityServiceService,
  NamespaceKind,
  Visibility as ProtoVisibility,
  type CheckAccessRequest,
  type CheckAccessResponse,
  type GroupSummary,
  type IdentityServiceServer,
  type ProjectSummary,
  type ResolveGroupRequest,
  type ResolveGroupResponse,
  type ResolveProjectRequest,
  type ResolveProjectResponse,
} from '@platform/proto/identity/v1';
import type { GroupStore } from '../groups/groups-store.ts';
import type { ProjectStore } from '../projects/projects-store.ts';
import type { ProjectAccessSummary, ProjectsReadModel } from '../projects/projects-read-model.ts';
import type { Project } from '../access/project.entity.ts';
import { isAdmin, type AccessPolicy } from '../access/access-policy.ts';
import type { Group, Namespace, Visibility } from '../access/namespace.entity.ts';
import { fullNameOf, type NamespaceStore } from '../access/namespaces-store.ts';
import { namespaceWebUrl, type NamespaceViewContext } from '../access/namespace-views.ts';

const VISIBILITY: Record<Visibility, ProtoVisibility> = {
  private: ProtoVisibility.VISIBILITY_PRIVATE,
  internal: ProtoVisibility.VISIBILITY_INTERNAL,
  public: ProtoVisibility.VISIBILITY_PUBLIC,
};

/** `:id` as it arrives in a URL: digits are an id, anything else a full path. */
function parseIdOrPath(value: string): number | string {
  const trimmed = value.trim();
  if (!trimmed) throw new InputError('id_or_path is missing');
  return /^\d+$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/**
 * What each RPC may do for a user's token: access checks serve API, git and registry reads alike,
 * and activity events, which `read_user` reads (writes are refused earlier, by their routes); resolving by id or path answers whoever may see
 * the resource, so services ask it only on their own behalf.
 */
const NAMESPACE_RPC_SCOPES: Record<'resolveProject' | 'resolveGroup' | 'checkAccess', RpcScope> = {
  resolveProject: 'internal',
  resolveGroup: 'internal',
  checkAccess: ['read_api', 'read_user', 'read_repository', 'read_registry'],
};

/**
 * The RPCs through which every other service resolves `:id` of a project or group and asks
 * whether a caller may see or act on it. Each call but a project's access check runs in its own unit of work.
 */
export function namespacesGrpc(options: {
  orm: Orm;
  access: AccessPolicy;
  groups: GroupStore;
  projects: ProjectStore;
  namespaces: NamespaceStore;
  projectReads: ProjectsReadModel;
  views: NamespaceViewContext;
  logger: Logger;
}): GrpcServiceBinding {
  const { orm, access, groups, projects, namespaces, projectReads, views, logger } = options;

  async function groupSummary(group: Group): Promise<GroupSummary> {
    const known = await namespaces.withAncestors([group]);
    return {
      id: group.id,
      name: group.name,
      path: group.path,
      fullPath: group.fullPath,
      fullName: fullNameOf(group, known),
      visibility: VISIBILITY[group.visibility as Visibility],
      parentId: group.parentId ?? 0,
      webUrl: namespaceWebUrl(group, views),
      ancestorIds: group.traversalIds,
    };
  }

  async function projectSummary(project: Project, namespace: Namespace): Promise<ProjectSummary> {
    const known = await namespaces.withAncestors([namespace]);
    return summaryOf({
      id: project.id,
      name: project.name,
      path: project.path,
      description: project.description ?? null,
      visibility: project.visibility as Visibility,
      archived: project.archived,
      defaultBranch: project.defaultBranch,
      creatorId: project.creatorId ?? null,
      createdAt: project.createdAt.toISOString(),
      mergeMethod: project.mergeMethod,
      forkedFromProjectId: project.forkedFromProjectId ?? null,
      onlyAllowMergeIfPipelineSucceeds: project.onlyAllowMergeIfPipelineSucceeds,
      allowMergeOnSkippedPipeline: project.allowMergeOnSkippedPipeline ?? null,
      onlyAllowMergeIfAllDiscussionsAreResolved: project.onlyAllowMergeIfAllDiscussionsAreResolved,
      namespace: { ...namespace, parentId: namespace.parentId ?? null, fullName: fullNameOf(namespace, known) },
    });
  }

  function summaryOf(project: Omit<ProjectAccessSummary, 'accessLevel' | 'isAdmin'>): ProjectSummary {
    const { namespace } = project;
    return {
      id: project.id,
      name: project.name,
      path: project.path,
      pathWithNamespace: `${namespace.fullPath}/${project.path}`,
      nameWithNamespace: `${namespace.fullName} / ${project.name}`,
      description: project.description ?? '',
      visibility: VISIBILITY[project.visibility],
      namespace: {
        id: namespace.id,
        name: namespace.name,
        path: namespace.path,
        kind: namespace.kind === 'group' ? NamespaceKind.NAMESPACE_KIND_GROUP : NamespaceKind.NAMESPACE_KIND_USER,
        fullPath: namespace.fullPath,
        parentId: namespace.parentId ?? 0,
        webUrl: namespaceWebUrl(namespace, views),
      },
      archived: project.archived,
      defaultBranch: project.defaultBranch,
      webUrl: `${views.externalUrl}/${namespace.fullPath}/${project.path}`,
      creatorId: project.creatorId ?? 0,
      createdAt: project.createdAt,
      namespaceAncestorIds: namespace.traversalIds,
      mergeMethod: project.mergeMethod,
      forkedFromProjectId: project.forkedFromProjectId ?? 0,
      onlyAllowMergeIfPipelineSucceeds: project.onlyAllowMergeIfPipelineSucceeds,
      allowMergeOnSkippedPipeline: project.allowMergeOnSkippedPipeline ?? false,
      onlyAllowMergeIfAllDiscussionsAreResolved: project.onlyAllowMergeIfAllDiscussionsAreResolved,
    };
  }

  const implementation: Pick<IdentityServiceServer, 'resolveProject' | 'resolveGroup' | 'checkAccess'> = {
    resolveProject: unaryHandler(logger, (request: ResolveProjectRequest) =>
      inUnitOfWork(orm, async (): Promise<ResolveProjectResponse> => {
        const project = await projects.findByIdOrPath(parseIdOrPath(request.idOrPath));
        const namespace = project && (await namespaces.findById(project.namespaceId));
        if (!project || !namespace) throw new NotFoundError('Project');
        return { project: await projectSummary(project, namespace) };
      }),
    ),
    resolveGroup: unaryHandler(logger, (request: ResolveGroupRequest) =>
      inUnitOfWork(orm, async (): Promise<ResolveGroupResponse> => {
        const group = await groups.findByIdOrPath(parseIdOrPath(request.idOrPath));
        if (!group) throw new NotFoundError('Group');
        return { group: await groupSummary(group) };
      }),
    ),
    checkAccess: unaryHandler(logger, async (request: CheckAccessRequest, { caller }): Promise<CheckAccessResponse> => {
      if (request.projectIdOrPath !== undefined) {
        // One statement that also reads the caller's row, no entities and no unit of work: every
        // project-scoped request of the other services asks this.
        // A deploy token sees its project, or its group's, whatever the visibility; its service decides what its scopes allow.
        const deployToken = deployTokenOf(caller);
        const found = await projectReads.accessSummary(
          caller.kind === 'user' ? caller.userId : 0,
          parseIdOrPath(request.projectIdOrPath),
          deployToken && ((project) => deployToken.scopes.some((scope) => deployTokenCovers(deployToken, project, scope))),
        );
        if (!found) throw new NotFoundError('Project');
        const { accessLevel, isAdmin: admin, ...project } = found;
        return { allowed: admin || accessLevel >= request.minAccessLevel, accessLevel, isAdmin: admin, project: summaryOf(project) };
      }
      if (request.groupIdOrPath === undefined) throw new InputError('project_id_or_path or group_id_or_path is missing');
      const groupIdOrPath = request.groupIdOrPath;
      return inUnitOfWork(orm, async () => {
        const viewer = await access.viewerOf(caller);
        const admin = isAdmin(viewer);
        const { group, accessLevel } = await access.group(viewer, parseIdOrPath(groupIdOrPath));
        return { allowed: admin || accessLevel >= request.minAccessLevel, accessLevel, isAdmin: admin, group: await groupSummary(group) };
      });
    }),
  };
  return { definition: IdentityServiceService, implementation, scopes: NAMESPACE_RPC_SCOPES };
}
