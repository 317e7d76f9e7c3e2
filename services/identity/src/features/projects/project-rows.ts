/** The projects the read model answers, as plain rows the views turn into GitLab's bodies (neither imports the other). */
import type { Namespace } from '../access/namespace.entity.ts';
import type { SharedGroup } from '../access/namespace-views.ts';
import type { Project } from '../access/project.entity.ts';
import type { CustomAttribute } from '../custom-attributes/custom-attribute.entity.ts';
import type { BasicUser } from '../users/user-views.ts';

/** A project's namespace as its views embed it, with the names of its ancestors (`fullName`). */
export type ProjectNamespace = Pick<Namespace, 'id' | 'name' | 'path' | 'kind' | 'fullPath' | 'parentId' | 'avatarUrl'> & {
  fullName: string;
};

/** What GitLab's simple project view shows; timestamps are ISO 8601 strings. */
export type SimpleProject = Pick<Project, 'id' | 'description' | 'name' | 'path' | 'defaultBranch' | 'topics' | 'avatarUrl'> & {
  createdAt: string;
  lastActivityAt: string;
  namespace: ProjectNamespace;
  starCount: number;
  forksCount: number;
};

/** What the full project view shows: the simple view, the settings, the owner of a personal project, its fork source and shares. */
export type ListedProject = SimpleProject &
  Pick<
    Project,
    | 'packagesEnabled'
    | 'archived'
    | 'visibility'
    | 'resolveOutdatedDiffDiscussions'
    | 'containerExpirationPolicyCadence'
    | 'containerExpirationPolicyEnabled'
    | 'containerExpirationPolicyKeepN'
    | 'containerExpirationPolicyOlderThan'
    | 'containerExpirationPolicyNameRegex'
    | 'containerExpirationPolicyNameRegexKeep'
    | 'issuesAccessLevel'
    | 'repositoryAccessLevel'
    | 'mergeRequestsAccessLevel'
    | 'forkingAccessLevel'
    | 'wikiAccessLevel'
    | 'buildsAccessLevel'
    | 'snippetsAccessLevel'
    | 'pagesAccessLevel'
    | 'analyticsAccessLevel'
    | 'containerRegistryAccessLevel'
    | 'securityAndComplianceAccessLevel'
    | 'releasesAccessLevel'
    | 'environmentsAccessLevel'
    | 'featureFlagsAccessLevel'
    | 'infrastructureAccessLevel'
    | 'monitorAccessLevel'
    | 'emailsDisabled'
    | 'sharedRunnersEnabled'
    | 'lfsEnabled'
    | 'creatorId'
    | 'forkedFromProjectId'
    | 'ciConfigPath'
    | 'publicJobs'
    | 'onlyAllowMergeIfPipelineSucceeds'
    | 'allowMergeOnSkippedPipeline'
    | 'requestAccessEnabled'
    | 'onlyAllowMergeIfAllDiscussionsAreResolved'
    | 'removeSourceBranchAfterMerge'
    | 'printingMergeRequestLinkEnabled'
    | 'mergeMethod'
    | 'squashOption'
    | 'repositoryStorage'
  > & {
    updatedAt: string;
    containerExpirationPolicyNextRunAt: string | null;
    /** The day (`YYYY-MM-DD`) the project was marked for deletion. */
    markedForDeletionOn: string | null;
    /** The owner of a personal namespace's project. */
    owner: BasicUser | null;
    /** The project it was forked from, where the viewer may see it. */
    forkedFrom: SimpleProject | null;
    /** Shares with groups the viewer may see, oldest first. */
    shares: SharedGroup[];
    /** Only where an administrator asked for them. */
    customAttributes?: Array<Pick<CustomAttribute, 'key' | 'value'>>;
  };

export interface ProjectPermissions {
  projectAccessLevel: number | null;
  groupAccessLevel: number | null;
}

/** `GET /projects/:id`: the full view and the viewer's own membership and access to its group. */
export type ProjectDetailsRow = ListedProject & { permissions: ProjectPermissions };
