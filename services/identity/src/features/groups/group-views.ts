import { ACCESS_LEVEL } from '@platform/identity-client';
import { avatarUrlView, groupWebUrl, sharedWithGroupView, type NamespaceViewContext } from '../access/namespace-views.ts';
import type { Viewer } from '../access/access-sql.ts';
import { isAdmin } from '../access/access-policy.ts';
import { projectView, projectViewOptions } from '../projects/project-views.ts';
import type { GroupDetailsRow, ListedGroup } from './group-rows.ts';

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

/** Group details: the list view plus shares, the runners token for its administrators, and its projects when they were read. */
export function groupDetailsView(group: GroupDetailsRow, options: { viewer: Viewer; views: NamespaceViewContext }) {
  const { viewer, views } = options;
  const canAdminister = isAdmin(viewer) || group.accessLevel >= ACCESS_LEVEL.OWNER;
  const body: Record<string, unknown> = {
    ...groupView(group, views),
    shared_with_groups: group.shares.map(sharedWithGroupView),
    ...(canAdminister ? { runners_token: group.runnersToken ?? null } : {}),
    // A setting of top-level groups: GitLab shows it for them only.
    ...(group.parentId == null ? { prevent_sharing_groups_outside_hierarchy: false } : {}),
    prevent_forking_outside_group: null,
    membership_lock: false,
  };
  if (group.projects) {
    const projectOptions = projectViewOptions(viewer);
    body.projects = group.projects.own.map((project) => projectView(project, views, projectOptions));
    body.shared_projects = group.projects.shared.map((project) => projectView(project, views, projectOptions));
  }
  return body;
}
