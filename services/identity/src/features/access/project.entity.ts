import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { VISIBILITIES } from './namespace.entity.ts';

export const FEATURE_ACCESS_LEVELS = ['disabled', 'private', 'enabled'] as const;
export const PAGES_ACCESS_LEVELS = ['disabled', 'private', 'enabled', 'public'] as const;
export const MERGE_METHODS = ['merge', 'rebase_merge', 'ff'] as const;
export const SQUASH_OPTIONS = ['never', 'always', 'default_on', 'default_off'] as const;

/** The project features with an `<feature>_access_level` setting, as GitLab names them. */
export const PROJECT_FEATURES = [
  'issues',
  'repository',
  'merge_requests',
  'forking',
  'wiki',
  'builds',
  'snippets',
  'analytics',
  'container_registry',
  'security_and_compliance',
  'releases',
  'environments',
  'feature_flags',
  'infrastructure',
  'monitor',
] as const;
export type ProjectFeature = (typeof PROJECT_FEATURES)[number];

const featureLevel = () => p.enum(FEATURE_ACCESS_LEVELS).default('enabled');

export const Project = defineEntity({
  name: 'Project',
  tableName: 'projects',
  properties: {
    id: p.integer().primary().autoincrement(),
    namespaceId: p.integer(),
    name: p.text(),
    path: p.text(),
    description: p.text().nullable(),
    visibility: p.enum(VISIBILITIES).default('private'),
    defaultBranch: p.text().default('main'),
    archived: p.boolean().default(false),
    creatorId: p.integer().nullable(),
    topics: p.array().default([]),
    avatarUrl: p.text().nullable(),
    requestAccessEnabled: p.boolean().default(true),
    issuesAccessLevel: featureLevel(),
    repositoryAccessLevel: featureLevel(),
    mergeRequestsAccessLevel: featureLevel(),
    forkingAccessLevel: featureLevel(),
    wikiAccessLevel: featureLevel(),
    buildsAccessLevel: featureLevel(),
    snippetsAccessLevel: featureLevel(),
    analyticsAccessLevel: featureLevel(),
    containerRegistryAccessLevel: featureLevel(),
    securityAndComplianceAccessLevel: featureLevel(),
    releasesAccessLevel: featureLevel(),
    environmentsAccessLevel: featureLevel(),
    featureFlagsAccessLevel: featureLevel(),
    infrastructureAccessLevel: featureLevel(),
    monitorAccessLevel: featureLevel(),
    pagesAccessLevel: p.enum(PAGES_ACCESS_LEVELS).default('private'),
    sharedRunnersEnabled: p.boolean().default(true),
    lfsEnabled: p.boolean().default(true),
    packagesEnabled: p.boolean().default(true),
    publicJobs: p.boolean().default(true),
    emailsDisabled: p.boolean().default(false),
    resolveOutdatedDiffDiscussions: p.boolean().default(false),
    onlyAllowMergeIfPipelineSucceeds: p.boolean().default(false),
    /** GitLab's `allow_merge_on_skipped_pipeline`: a skipped head pipeline counts as succeeded; null until set. */
    allowMergeOnSkippedPipeline: p.boolean().nullable(),
    onlyAllowMergeIfAllDiscussionsAreResolved: p.boolean().default(false),
    removeSourceBranchAfterMerge: p.boolean().default(true),
    printingMergeRequestLinkEnabled: p.boolean().default(true),
    mergeMethod: p.enum(MERGE_METHODS).default('merge'),
    /** The project this one was forked from (GitLab's `forked_from_project`); null for none, or once unlinked. */
    forkedFromProjectId: p.integer().nullable(),
    squashOption: p.enum(SQUASH_OPTIONS).default('default_off'),
    ciConfigPath: p.text().nullable(),
    containerExpirationPolicyCadence: p.text().default('1d'),
    containerExpirationPolicyEnabled: p.boolean().default(false),
    containerExpirationPolicyKeepN: p.integer().nullable().default(10),
    containerExpirationPolicyOlderThan: p.text().nullable().default('90d'),
    containerExpirationPolicyNameRegex: p.text().nullable().default('.*'),
    containerExpirationPolicyNameRegexKeep: p.text().nullable(),
    containerExpirationPolicyNextRunAt: p.datetime().nullable(),
    /** The storage review keeps the project's repository on, as its `review.repository.storage_changed` events tell. */
    repositoryStorage: p.text().default('default'),
    /** Set while the project waits out `deletion_adjourned_period` before it is deleted. */
    markedForDeletionAt: p.datetime().nullable(),
    markedForDeletionById: p.integer().nullable(),
    lastActivityAt: p.datetime().onCreate(() => new Date()),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type Project = InferEntity<typeof Project>;

/** A project shared with a group: the group's members get up to `groupAccess` in the project. */
export const ProjectGroupLink = defineEntity({
  name: 'ProjectGroupLink',
  tableName: 'project_group_links',
  properties: {
    id: p.integer().primary().autoincrement(),
    projectId: p.integer(),
    groupId: p.integer(),
    groupAccess: p.integer(),
    expiresAt: p.string().columnType('date').nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type ProjectGroupLink = InferEntity<typeof ProjectGroupLink>;
