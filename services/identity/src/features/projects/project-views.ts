import type { Namespace } from '../access/namespace.entity.ts';
import { fullNameOf } from '../access/namespaces-store.ts';
import {
  avatarUrlView,
  namespaceView,
  sharedWithGroupView,
  type NamespaceViewContext,
  type SharedGroup,
} from '../access/namespace-views.ts';
import type { User } from '../users/user.entity.ts';
import { basicUserView } from '../users/user-views.ts';
import type { Viewer } from '../access/access-sql.ts';
import { isAdmin } from '../access/access-policy.ts';
import type { Project, ProjectGroupLink } from '../access/project.entity.ts';
import type { CustomAttribute } from '../custom-attributes/custom-attribute.entity.ts';
import type { ProjectsService } from './projects-service.ts';

/** Everything project views need besides the projects, loaded once per response. */
export interface ProjectViewData {
  /** The projects' namespaces and all their ancestors. */
  namespaces: Map<number, Namespace>;
  starCounts: Map<number, number>;
  forkCounts: Map<number, number>;
  /** The projects forks were forked from, where the viewer may see them. */
  forkedFrom: Map<number, Project>;
  /** Shares of each project with groups the viewer may see. */
  shares: Map<number, SharedGroup[]>;
  /** Owners of personal namespaces, by namespace id. */
  owners: Map<number, User>;
  customAttributes?: Map<number, CustomAttribute[]>;
  /** Administrators see `repository_storage`, as in GitLab (`change_repository_storage`). */
  showRepositoryStorage?: boolean;
}

export interface ProjectPermissions {
  projectAccessLevel: number | null;
  groupAccessLevel: number | null;
}

function namespaceOf(project: Project, data: ProjectViewData): Namespace {
  const namespace = data.namespaces.get(project.namespaceId);
  if (!namespace) throw new Error(`namespace ${project.namespaceId} of project ${project.id} was not loaded`);
  return namespace;
}

function registryHostOf(context: NamespaceViewContext): string {
  return context.registryHost ?? new URL(context.externalUrl).host;
}

/** GitLab's `simple=true` project: identity, URLs and namespace. */
export function simpleProjectView(project: Project, data: ProjectViewData, context: NamespaceViewContext) {
  const namespace = namespaceOf(project, data);
  const pathWithNamespace = `${namespace.fullPath}/${project.path}`;
  const webUrl = `${context.externalUrl}/${pathWithNamespace}`;
  return {
    id: project.id,
    description: project.description ?? null,
    name: project.name,
    name_with_namespace: `${fullNameOf(namespace, data.namespaces)} / ${project.name}`,
    path: project.path,
    path_with_namespace: pathWithNamespace,
    created_at: project.createdAt,
    default_branch: project.defaultBranch,
    tag_list: project.topics,
    topics: project.topics,
    ssh_url_to_repo: `git@${new URL(context.externalUrl).hostname}:${pathWithNamespace}.git`,
    http_url_to_repo: `${webUrl}.git`,
    web_url: webUrl,
    readme_url: null,
    avatar_url: avatarUrlView(project.avatarUrl, context),
    forks_count: data.forkCounts.get(project.id) ?? 0,
    star_count: data.starCounts.get(project.id) ?? 0,
    last_activity_at: project.lastActivityAt,
    namespace: namespaceView(namespace, context),
  };
}

function expirationPolicyView(project: Project) {
  return {
    cadence: project.containerExpirationPolicyCadence,
    enabled: project.containerExpirationPolicyEnabled,
    keep_n: project.containerExpirationPolicyKeepN ?? null,
    older_than: project.containerExpirationPolicyOlderThan ?? null,
    name_regex: project.containerExpirationPolicyNameRegex ?? null,
    name_regex_keep: project.containerExpirationPolicyNameRegexKeep ?? null,
    next_run_at: project.containerExpirationPolicyNextRunAt ?? null,
  };
}

function accessLevels(project: Project) {
  return {
    issues_access_level: project.issuesAccessLevel,
    repository_access_level: project.repositoryAccessLevel,
    merge_requests_access_level: project.mergeRequestsAccessLevel,
    forking_access_level: project.forkingAccessLevel,
    wiki_access_level: project.wikiAccessLevel,
    builds_access_level: project.buildsAccessLevel,
    snippets_access_level: project.snippetsAccessLevel,
    pages_access_level: project.pagesAccessLevel,
    analytics_access_level: project.analyticsAccessLevel,
    container_registry_access_level: project.containerRegistryAccessLevel,
    security_and_compliance_access_level: project.securityAndComplianceAccessLevel,
    releases_access_level: project.releasesAccessLevel,
    environments_access_level: project.environmentsAccessLevel,
    feature_flags_access_level: project.featureFlagsAccessLevel,
    infrastructure_access_level: project.infrastructureAccessLevel,
    monitor_access_level: project.monitorAccessLevel,
  };
}

/** GitLab's project entity, as `GET /projects/:id` and the project lists show it. */
export function projectView(
  project: Project,
  data: ProjectViewData,
  context: NamespaceViewContext,
  options: { permissions?: ProjectPermissions } = {},
) {
  const simple = simpleProjectView(project, data, context);
  const namespace = namespaceOf(project, data);
  const owner = namespace.kind === 'user' ? data.owners.get(namespace.id) : undefined;
  const selfUrl = `${context.externalUrl}/api/v4/projects/${project.id}`;
  const enabled = (level: string) => level !== 'disabled';
  const attributes = data.customAttributes?.get(project.id);
  const forkedFrom = project.forkedFromProjectId ? data.forkedFrom.get(project.forkedFromProjectId) : undefined;
  return {
    ...simple,
    container_registry_image_prefix: `${registryHostOf(context)}/${simple.path_with_namespace}`.toLowerCase(),
    _links: {
      self: selfUrl,
      issues: `${selfUrl}/issues`,
      merge_requests: `${selfUrl}/merge_requests`,
      repo_branches: `${selfUrl}/repository/branches`,
      labels: `${selfUrl}/labels`,
      events: `${selfUrl}/events`,
      members: `${selfUrl}/members`,
      cluster_agents: `${selfUrl}/cluster_agents`,
    },
    packages_enabled: project.packagesEnabled,
    empty_repo: true,
    archived: project.archived,
    visibility: project.visibility,
    ...(owner ? { owner: basicUserView(owner, context) } : {}),
    resolve_outdated_diff_discussions: project.resolveOutdatedDiffDiscussions,
    container_expiration_policy: expirationPolicyView(project),
    issues_enabled: enabled(project.issuesAccessLevel),
    merge_requests_enabled: enabled(project.mergeRequestsAccessLevel),
    wiki_enabled: enabled(project.wikiAccessLevel),
    jobs_enabled: enabled(project.buildsAccessLevel),
    snippets_enabled: enabled(project.snippetsAccessLevel),
    container_registry_enabled: enabled(project.containerRegistryAccessLevel),
    service_desk_enabled: false,
    can_create_merge_request_in: options.permissions
      ? Math.max(options.permissions.projectAccessLevel ?? 0, options.permissions.groupAccessLevel ?? 0) >= 30
      : false,
    ...accessLevels(project),
    emails_disabled: project.emailsDisabled,
    emails_enabled: !project.emailsDisabled,
    shared_runners_enabled: project.sharedRunnersEnabled,
    lfs_enabled: project.lfsEnabled,
    creator_id: project.creatorId ?? null,
    // A fork's repository is copied when review first serves it: nothing is left to wait for.
    import_status: project.forkedFromProjectId ? 'finished' : 'none',
    ...(forkedFrom ? { forked_from_project: simpleProjectView(forkedFrom, data, context) } : {}),
    open_issues_count: 0,
    updated_at: project.updatedAt,
    ci_config_path: project.ciConfigPath ?? null,
    public_jobs: project.publicJobs,
    shared_with_groups: (data.shares.get(project.id) ?? []).map(sharedWithGroupView),
    only_allow_merge_if_pipeline_succeeds: project.onlyAllowMergeIfPipelineSucceeds,
    allow_merge_on_skipped_pipeline: null,
    request_access_enabled: project.requestAccessEnabled,
    only_allow_merge_if_all_discussions_are_resolved: project.onlyAllowMergeIfAllDiscussionsAreResolved,
    remove_source_branch_after_merge: project.removeSourceBranchAfterMerge,
    printing_merge_request_link_enabled: project.printingMergeRequestLinkEnabled,
    merge_method: project.mergeMethod,
    squash_option: project.squashOption,
    ...(attributes ? { custom_attributes: attributes.map(({ key, value }) => ({ key, value })) } : {}),
    ...(data.showRepositoryStorage ? { repository_storage: project.repositoryStorage } : {}),
    // GitLab shows the day the project was marked, under both names.
    marked_for_deletion_at: project.markedForDeletionAt ? project.markedForDeletionAt.toISOString().slice(0, 10) : null,
    marked_for_deletion_on: project.markedForDeletionAt ? project.markedForDeletionAt.toISOString().slice(0, 10) : null,
    ...(options.permissions
      ? {
          permissions: {
            project_access:
              options.permissions.projectAccessLevel === null
                ? null
                : { access_level: options.permissions.projectAccessLevel, notification_level: 3 },
            group_access:
              options.permissions.groupAccessLevel === null
                ? null
                : { access_level: options.permissions.groupAccessLevel, notification_level: 3 },
          },
        }
      : {}),
  };
}

/** `POST /projects/:id/share` answers with the link itself. */
export function projectGroupLinkView(link: ProjectGroupLink) {
  return {
    id: link.id,
    project_id: link.projectId,
    group_id: link.groupId,
    group_access: link.groupAccess,
    expires_at: link.expiresAt ?? null,
  };
}

/** Projects as a list shows them, in the full or `simple` view; custom attributes only for administrators who ask. */
export async function projectListViews(options: {
  projects: ProjectsService;
  viewer: Viewer;
  items: Project[];
  query: { simple?: boolean | undefined; with_custom_attributes?: boolean | undefined };
  views: NamespaceViewContext;
}) {
  const { projects, viewer, items, query, views } = options;
  const data = await projects.viewData(viewer, items, { customAttributes: isAdmin(viewer) && query.with_custom_attributes === true });
  return items.map((project) => (query.simple ? simpleProjectView(project, data, views) : projectView(project, data, views)));
}
