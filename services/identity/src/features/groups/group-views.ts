import type { Group, Namespace } from '../namespaces/namespace.entity.ts';
import { fullNameOf } from '../namespaces/namespaces-store.ts';
import { namespaceWebUrl, type NamespaceViewContext } from '../namespaces/namespace-views.ts';
import type { GroupCustomAttribute } from './group.entity.ts';

/** What group views need besides the groups, loaded once per response. */
export interface GroupViewData {
  /** The groups and all their ancestors. */
  namespaces: Map<number, Namespace>;
  customAttributes?: Map<number, GroupCustomAttribute[]>;
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
    avatar_url: group.avatarUrl ?? null,
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

/** A share with a group, as `shared_with_groups` shows it: read as a plain row, not entities. */
export interface SharedGroup {
  groupId: number;
  groupName: string;
  groupFullPath: string;
  groupAccess: number;
  expiresAt: string | null;
}

/** One entry of `shared_with_groups`, of groups and of projects alike. */
export function sharedWithGroupView(share: SharedGroup) {
  return {
    group_id: share.groupId,
    group_name: share.groupName,
    group_full_path: share.groupFullPath,
    group_access_level: share.groupAccess,
    expires_at: share.expiresAt ?? null,
  };
}
