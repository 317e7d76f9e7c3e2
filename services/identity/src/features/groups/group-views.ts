import { actorOf, type AuthenticatedCaller } from '@platform/auth';
import type { EventActor } from '@platform/events';
import type { Group, Namespace } from '../access/namespace.entity.ts';
import { avatarUrlView, sharedWithGroupView, type NamespaceViewContext, type SharedGroup } from '../access/namespace-views.ts';
import { ACCESS_LEVELS } from '../access/access-levels.ts';
import type { Viewer } from '../access/access-sql.ts';
import { isAdmin, type AccessPolicy } from '../access/access-policy.ts';
import type { ProjectsService } from '../projects/projects-service.ts';
import { projectView, projectViewOptions } from '../projects/project-views.ts';
import type { CustomAttribute } from '../custom-attributes/custom-attribute.entity.ts';
import type { GroupsService } from './groups-service.ts';

/** A group's `PublicGroupDetails` fields, as a read model selects them (`fullName` from its ancestors). */
export type PublicGroup = Pick<Namespace, 'id' | 'name' | 'avatarUrl' | 'fullPath'> & { fullName: string };

/** What the group lists show of a group; the extras only where an administrator asked for them. */
export type ListedGroup = PublicGroup &
  Pick<
    Namespace,
    | 'path'
    | 'description'
    | 'visibility'
    | 'shareWithGroupLock'
    | 'requireTwoFactorAuthentication'
    | 'twoFactorGracePeriod'
    | 'projectCreationLevel'
    | 'autoDevopsEnabled'
    | 'subgroupCreationLevel'
    | 'emailsDisabled'
    | 'mentionsDisabled'
    | 'lfsEnabled'
    | 'defaultBranchProtection'
    | 'requestAccessEnabled'
    | 'parentId'
    | 'fileTemplateProjectId'
  > & {
    /** ISO 8601, as an entity's `Date` serialises. */
    createdAt: string;
    customAttributes?: Array<Pick<CustomAttribute, 'key' | 'value'>>;
    statistics?: Pick<
      Namespace,
      'storageSize' | 'repositorySize' | 'wikiSize' | 'lfsObjectsSize' | 'jobArtifactsSize' | 'packagesSize' | 'snippetsSize'
    >;
  };

/** A group's details: the listed fields, the viewer's access level, its visible shares and its runners token. */
export type GroupDetailsRow = ListedGroup & Pick<Namespace, 'runnersToken'> & { accessLevel: number; shares: SharedGroup[] };

/** Groups live under `/groups/<full path>`. */
export function groupWebUrl(group: Pick<Namespace, 'fullPath'>, context: NamespaceViewContext): string {
  return `${context.externalUrl}/groups/${group.fullPath}`;
}

function statisticsView(statistics: NonNullable<ListedGroup['statistics']>) {
  return {
    storage_size: statistics.storageSize,
    repository_size: statistics.repositorySize,
    wiki_size: statistics.wikiSize,
    lfs_objects_size: statistics.lfsObjectsSize,
    job_artifacts_size: statistics.jobArtifactsSize,
    packages_size: statistics.packagesSize,
    snippets_size: statistics.snippetsSize,
  };
}

/** GitLab's group entity, as the group lists show it. */
export function groupView(group: ListedGroup, context: NamespaceViewContext) {
  return {
    id: group.id,
    web_url: groupWebUrl(group, context),
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
    full_name: group.fullName,
    full_path: group.fullPath,
    created_at: group.createdAt,
    parent_id: group.parentId ?? null,
    file_template_project_id: group.fileTemplateProjectId ?? null,
    shared_runners_setting: 'enabled',
    marked_for_deletion_on: null,
    ...(group.customAttributes ? { custom_attributes: group.customAttributes.map(({ key, value }) => ({ key, value })) } : {}),
    ...(group.statistics ? { statistics: statisticsView(group.statistics) } : {}),
  };
}

/** What a group list adds to its columns: custom attributes and statistics, for administrators who ask. */
export function groupListExtras(viewer: Viewer, query: { with_custom_attributes?: boolean | undefined; statistics?: boolean | undefined }) {
  const admin = isAdmin(viewer);
  return { customAttributes: admin && query.with_custom_attributes === true, statistics: admin && query.statistics === true };
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
  const group = await groups.details(viewer, options.idOrPath, { customAttributes: isAdmin(viewer) && options.withCustomAttributes });
  const canAdminister = isAdmin(viewer) || group.accessLevel >= ACCESS_LEVELS.owner;
  const body: Record<string, unknown> = {
    ...groupView(group, views),
    shared_with_groups: group.shares.map(sharedWithGroupView),
    ...(canAdminister ? { runners_token: group.runnersToken ?? null } : {}),
    prevent_sharing_groups_outside_hierarchy: false,
    prevent_forking_outside_group: null,
    membership_lock: false,
  };
  if (options.withProjects) {
    const { own, shared } = await projects.ofGroupDetails(viewer, group.id, DETAIL_PROJECTS_LIMIT);
    const options = projectViewOptions(viewer);
    body.projects = own.map((project) => projectView(project, views, options));
    body.shared_projects = shared.map((project) => projectView(project, views, options));
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
