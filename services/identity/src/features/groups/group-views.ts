import { actorOf, type AuthenticatedCaller } from '@platform/auth';
import type { EventActor } from '@platform/events';
import type { Group, Namespace } from '../access/namespace.entity.ts';
import { fullNameOf } from '../access/namespaces-store.ts';
import { avatarUrlView, namespaceWebUrl, sharedWithGroupView, type NamespaceViewContext } from '../access/namespace-views.ts';
import type { Viewer } from '../access/access-sql.ts';
import { isAdmin, type AccessPolicy } from '../access/access-policy.ts';
import type { ProjectsService } from '../projects/projects-service.ts';
import { projectView } from '../projects/project-views.ts';
import type { CustomAttribute } from '../custom-attributes/custom-attribute.entity.ts';
import type { GroupsService } from './groups-service.ts';

/** What group views need besides the groups, loaded once per response. */
export interface GroupViewData {
  /** The groups and all their ancestors. */
  namespaces: Map<number, Namespace>;
  customAttributes?: Map<number, CustomAttribute[]>;
  /** Administrators asked for `statistics`. */
  statistics?: boolean;
}

function statisticsView(group: Group) {
  return {
    storage_size: group.storageSize,
    repository_size: group.repositorySize,
    wiki_size: group.wikiSize,
    lfs_objects_size: group.lfsObjectsSize,
    job_artifacts_size: group.jobArtifactsSize,
    packages_size: group.packagesSize,
    snippets_size: group.snippetsSize,
  };
}

/** GitLab's group entity, as the group lists show it. */
export function groupView(group: Group, data: GroupViewData, context: NamespaceViewContext) {
  const attributes = data.customAttributes?.get(group.id);
  return {
    id: group.id,
    web_url: namespaceWebUrl(group, context),
    name: group.name,
    path: group.path,
    description: group.description,
    visibility: group.visibility,
    share_with_group_lock: group.shareWithGroupLock,
    require_two_factor_authentication: group.requireTwoFactorAuthentication,
    two_factor_grace_period: group.twoFactorGracePeriod,
    project_creation_level: group.projectCreationLevel,
    auto_devops_enabled: group.autoDevopsEnabled ?? null,
    subgroup_creation_level: group.subgroupCreationLevel,
    emails_disabled: group.emailsDisabled,
    emails_enabled: !group.emailsDisabled,
    mentions_disabled: group.mentionsDisabled,
    lfs_enabled: group.lfsEnabled,
    default_branch: null,
    default_branch_protection: group.defaultBranchProtection,
    avatar_url: avatarUrlView(group.avatarUrl, context),
    request_access_enabled: group.requestAccessEnabled,
    full_name: fullNameOf(group, data.namespaces),
    full_path: group.fullPath,
    created_at: group.createdAt,
    parent_id: group.parentId ?? null,
    file_template_project_id: group.fileTemplateProjectId ?? null,
    shared_runners_setting: 'enabled',
    marked_for_deletion_on: null,
    ...(attributes ? { custom_attributes: attributes.map(({ key, value }) => ({ key, value })) } : {}),
    ...(data.statistics ? { statistics: statisticsView(group) } : {}),
  };
}

/** Groups as a list shows them; custom attributes and statistics only for administrators who ask. */
export async function groupListViews(options: {
  groups: GroupsService;
  viewer: Viewer;
  items: Group[];
  query: { with_custom_attributes?: boolean | undefined; statistics?: boolean | undefined };
  views: NamespaceViewContext;
}) {
  const { groups, viewer, items, query, views } = options;
  const admin = isAdmin(viewer);
  const data = await groups.viewData(items, {
    customAttributes: admin && query.with_custom_attributes === true,
    statistics: admin && query.statistics === true,
  });
  return items.map((group) => groupView(group, data, views));
}

/** The deprecated `projects` and `shared_projects` of group details hold at most this many each. */
const DETAIL_PROJECTS_LIMIT = 100;

/** Group details: the list view plus shares, the runners token for its administrators, and its projects. */
export async function groupDetailsView(options: {
  groups: GroupsService;
  projects: ProjectsService;
  viewer: Viewer;
  idOrPath: number | string;
  withProjects: boolean;
  withCustomAttributes: boolean;
  views: NamespaceViewContext;
}) {
  const { groups, projects, viewer, views } = options;
  const { group, shares, canAdminister } = await groups.details(viewer, options.idOrPath);
  const data = await groups.viewData([group], { customAttributes: isAdmin(viewer) && options.withCustomAttributes });
  const body: Record<string, unknown> = {
    ...groupView(group, data, views),
    shared_with_groups: shares.map(sharedWithGroupView),
    ...(canAdminister ? { runners_token: group.runnersToken ?? null } : {}),
    prevent_sharing_groups_outside_hierarchy: false,
    prevent_forking_outside_group: null,
    membership_lock: false,
  };
  if (options.withProjects) {
    const { own, shared } = await projects.ofGroupDetails(viewer, group.id, DETAIL_PROJECTS_LIMIT);
    const projectData = await projects.viewData(viewer, [...own, ...shared]);
    body.projects = own.map((project) => projectView(project, projectData, views));
    body.shared_projects = shared.map((project) => projectView(project, projectData, views));
  }
  return body;
}

/** A change the caller makes to a group, answered with the group's details: with its projects, except where `withProjects` is false (a new group has none). */
export async function changedGroupDetailsView(
  deps: { groups: GroupsService; projects: ProjectsService; access: AccessPolicy; views: NamespaceViewContext },
  caller: AuthenticatedCaller,
  change: (viewer: Viewer, actor: EventActor) => Promise<Group>,
  options: { withProjects: boolean } = { withProjects: true },
) {
  const viewer = await deps.access.viewerOf(caller);
  const group = await change(viewer, actorOf(caller));
  return groupDetailsView({ ...deps, viewer, idOrPath: group.id, withProjects: options.withProjects, withCustomAttributes: false });
}
