import { createHash } from 'node:crypto';
import { avatarUrlView, namespaceView, sharedWithGroupView, type NamespaceViewContext } from '../access/namespace-views.ts';
import { basicUserView } from '../users/user-views.ts';
import type { Viewer } from '../access/access-sql.ts';
import { isAdmin } from '../access/access-policy.ts';
import type { Project, ProjectGroupLink } from '../access/project.entity.ts';
import type { ListedProject, ProjectPermissions, SimpleProject } from './project-rows.ts';
import type { ProjectKeysetPage, ProjectListPage, ProjectListRead } from './projects-read-model.ts';

/** GitLab's `ProjectRepositoryStorage`: where the project's repository lives, in GitLab's hashed layout. */
export function projectStorageView(project: Pick<Project, 'id' | 'repositoryStorage' | 'createdAt'>) {
  const hash = createHash('sha256').update(String(project.id)).digest('hex');
  return {
    project_id: project.id,
    disk_path: `@hashed/${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}`,
    repository_storage: project.repositoryStorage,
    created_at: project.createdAt,
  };
}

/** The hosts a context's project URLs name, parsed from its base URL once per context rather than once per project shown. */
const hostsByContext = new WeakMap<NamespaceViewContext, { ssh: string; registry: string }>();

function hostsOf(context: NamespaceViewContext): { ssh: string; registry: string } {
  let hosts = hostsByContext.get(context);
  if (!hosts) {
    const url = new URL(context.externalUrl);
    hosts = { ssh: url.hostname, registry: context.registryHost ?? url.host };
    hostsByContext.set(context, hosts);
  }
  return hosts;
}

/** GitLab's `simple=true` project: identity, URLs and namespace. */
export function simpleProjectView(project: SimpleProject, context: NamespaceViewContext) {
  const { namespace } = project;
  const pathWithNamespace = `${namespace.fullPath}/${project.path}`;
  const webUrl = `${context.externalUrl}/${pathWithNamespace}`;
  return {
    id: project.id,
    description: project.description ?? null,
    name: project.name,
    name_with_namespace: `${namespace.fullName} / ${project.name}`,
    path: project.path,
    path_with_namespace: pathWithNamespace,
    created_at: project.createdAt,
    default_branch: project.defaultBranch,
    tag_list: project.topics,
    topics: project.topics,
    ssh_url_to_repo: `git@${hostsOf(context).ssh}:${pathWithNamespace}.git`,
    http_url_to_repo: `${webUrl}.git`,
    web_url: webUrl,
    readme_url: null,
    avatar_url: avatarUrlView(project.avatarUrl, context),
    forks_count: project.forksCount,
    star_count: project.starCount,
    last_activity_at: project.lastActivityAt,
    namespace: namespaceView(namespace, context),
  };
}

function expirationPolicyView(project: ListedProject) {
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

function accessLevels(project: ListedProject) {
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

/** What a project view shows beyond the project: the viewer's permissions (`GET /projects/:id`), and for administrators `repository_storage`. */
export interface ProjectViewOptions {
  permissions?: ProjectPermissions;
  /** Administrators see `repository_storage`, as in GitLab (`change_repository_storage`). */
  showRepositoryStorage?: boolean;
}

/** What the viewer sees of every project they are shown. */
export function projectViewOptions(viewer: Viewer): ProjectViewOptions {
  return isAdmin(viewer) ? { showRepositoryStorage: true } : {};
}

/**
 * GitLab's project entity, as `GET /projects/:id` and the project lists show it. A key the project
 * lacks (`owner`, `forked_from_project`, ...) is undefined, which JSON leaves out, rather than spread
 * in: every view then has one shape, built and serialised in about two thirds of the time
 * (docs/read-path.md, "a member's project list").
 */
export function projectView(project: ListedProject, context: NamespaceViewContext, options: ProjectViewOptions = {}) {
  const simple = simpleProjectView(project, context);
  const selfUrl = `${context.externalUrl}/api/v4/projects/${project.id}`;
  const enabled = (level: string) => level !== 'disabled';
  const { permissions } = options;
  return {
    ...simple,
    container_registry_image_prefix: `${hostsOf(context).registry}/${simple.path_with_namespace}`.toLowerCase(),
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
    owner: project.owner ? basicUserView(project.owner, context) : undefined,
    resolve_outdated_diff_discussions: project.resolveOutdatedDiffDiscussions,
    container_expiration_policy: expirationPolicyView(project),
    issues_enabled: enabled(project.issuesAccessLevel),
    merge_requests_enabled: enabled(project.mergeRequestsAccessLevel),
    wiki_enabled: enabled(project.wikiAccessLevel),
    jobs_enabled: enabled(project.buildsAccessLevel),
    snippets_enabled: enabled(project.snippetsAccessLevel),
    container_registry_enabled: enabled(project.containerRegistryAccessLevel),
    service_desk_enabled: false,
    can_create_merge_request_in: permissions
      ? Math.max(permissions.projectAccessLevel ?? 0, permissions.groupAccessLevel ?? 0) >= 30
      : false,
    ...accessLevels(project),
    emails_disabled: project.emailsDisabled,
    emails_enabled: !project.emailsDisabled,
    shared_runners_enabled: project.sharedRunnersEnabled,
    lfs_enabled: project.lfsEnabled,
    creator_id: project.creatorId ?? null,
    // A fork's repository is copied when review first serves it: nothing is left to wait for.
    import_status: project.forkedFromProjectId ? 'finished' : 'none',
    forked_from_project: project.forkedFrom ? simpleProjectView(project.forkedFrom, context) : undefined,
    open_issues_count: 0,
    updated_at: project.updatedAt,
    ci_config_path: project.ciConfigPath ?? null,
    public_jobs: project.publicJobs,
    shared_with_groups: project.shares.map(sharedWithGroupView),
    only_allow_merge_if_pipeline_succeeds: project.onlyAllowMergeIfPipelineSucceeds,
    allow_merge_on_skipped_pipeline: project.allowMergeOnSkippedPipeline ?? null,
    request_access_enabled: project.requestAccessEnabled,
    only_allow_merge_if_all_discussions_are_resolved: project.onlyAllowMergeIfAllDiscussionsAreResolved,
    remove_source_branch_after_merge: project.removeSourceBranchAfterMerge,
    printing_merge_request_link_enabled: project.printingMergeRequestLinkEnabled,
    merge_method: project.mergeMethod,
    squash_option: project.squashOption,
    custom_attributes: project.customAttributes?.map(({ key, value }) => ({ key, value })),
    repository_storage: options.showRepositoryStorage ? project.repositoryStorage : undefined,
    // GitLab shows the day the project was marked, under both names.
    marked_for_deletion_at: project.markedForDeletionOn,
    marked_for_deletion_on: project.markedForDeletionOn,
    permissions: permissions
      ? {
          project_access:
            permissions.projectAccessLevel === null ? null : { access_level: permissions.projectAccessLevel, notification_level: 3 },
          group_access:
            permissions.groupAccessLevel === null ? null : { access_level: permissions.groupAccessLevel, notification_level: 3 },
        }
      : undefined,
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

/** A list's projects in the view they were read for, the full or the `simple` one. */
export function projectListViews(listed: ProjectListPage | ProjectKeysetPage, viewer: Viewer, context: NamespaceViewContext) {
  if (listed.view === 'simple') return listed.items.map((project) => simpleProjectView(project, context));
  const options = projectViewOptions(viewer);
  return listed.items.map((project) => projectView(project, context, options));
}

/** What a list reads for its query: the `simple` view or the full one, custom attributes only for administrators who ask. */
export function projectListRead(
  viewer: Viewer,
  query: { simple?: boolean | undefined; with_custom_attributes?: boolean | undefined },
): ProjectListRead {
  return query.simple ? { view: 'simple' } : { view: 'full', customAttributes: isAdmin(viewer) && query.with_custom_attributes === true };
}
