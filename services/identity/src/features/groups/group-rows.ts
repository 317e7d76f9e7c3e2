/** The groups the read model answers, as plain rows the views turn into GitLab's bodies (neither imports the other). */
import type { Namespace } from '../access/namespace.entity.ts';
import type { SharedGroup } from '../access/namespace-views.ts';
import type { CustomAttribute } from '../custom-attributes/custom-attribute.entity.ts';
import type { ListedProject } from '../projects/project-rows.ts';

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

/** A group's projects as its details show them (GitLab's deprecated `projects` and `shared_projects`). */
export interface GroupDetailsProjects {
  own: ListedProject[];
  shared: ListedProject[];
}

/** A group's details: the listed fields, the viewer's access level, its visible shares, its runners token, and its projects where they were read. */
export type GroupDetailsRow = ListedGroup &
  Pick<Namespace, 'runnersToken'> & { accessLevel: number; shares: SharedGroup[]; projects?: GroupDetailsProjects };
