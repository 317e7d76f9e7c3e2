import type { EntityManager } from '@mikro-orm/postgresql';
import type { AttributeChange } from '@platform/proto/identity/v1/events';
import { FieldValidationError, ForbiddenError, NotFoundError, NotModifiedError, RefusedError, UnauthorizedError } from '@platform/errors';
import type { EventActor } from '@platform/events';
import { recordEvent } from '@platform/events/database';
import { VISIBILITY_RANK, type Namespace, type Visibility } from '../access/namespace.entity.ts';
import type { NamespaceStore } from '../access/namespaces-store.ts';
import { isValidName, isValidPath, NAME_MESSAGE, PATH_MESSAGE, pathFromName } from '../access/namespace.schemas.ts';
import type { PageWindow } from '@platform/db';
import type { ApplicationSettingsSource } from '@platform/admin-client';
import type { ContainerRegistryTags } from '@platform/packages-client';
import type { Logger } from '@platform/logger';
import type { RepositoryCreation } from '@platform/review-client';
import { ACCESS_LEVEL } from '@platform/identity-client';
import { anyHasContainerTags, CONTAINER_REGISTRY_TAGS_ERRORS } from './container-registry-paths.ts';
import { checkRestrictedVisibility } from '../access/restricted-visibility.ts';
import type { Keyset } from '../access/sql-helpers.ts';
import type { GroupLookup } from '../access/group-lookup.ts';
import { groupSnapshot } from '../access/group-snapshot.ts';
import type { UserStore } from '../users/users-store.ts';
import type { ResourceBots } from '../resource-access-tokens/resource-bots.ts';
import type { Viewer } from '../access/access-sql.ts';
import { checkShareGrant, isAdmin, type AccessPolicy } from '../access/access-policy.ts';
import { projectSource, type MembersService } from '../members/members-service.ts';
import type { Project, ProjectGroupLink } from '../access/project.entity.ts';
import type { NewProject, ProjectStore } from './projects-store.ts';
import type {
  ProjectFilter,
  ProjectKeysetPage,
  ProjectListPage,
  ProjectListRead,
  ProjectOrder,
  ProjectsReadModel,
} from './projects-read-model.ts';
import type {
  CreateProjectParams,
  ForkProjectParams,
  ProjectAttributeParams,
  ProjectListQuery,
  UpdateProjectParams,
} from './projects.schemas.ts';
import type { ProjectDetailsRow } from './project-rows.ts';
import type { AvatarChange } from '../avatars/avatar-storage.ts';
import {
  projectCreatedEvent,
  projectDeletedEvent,
  projectSharedEvent,
  projectSnapshot,
  projectUnsharedEvent,
  projectUpdatedEvent,
} from './projects.events.ts';

type ProjectChanges = Partial<Omit<Project, 'id' | 'namespaceId' | 'createdAt' | 'updatedAt'>>;

const CADENCE_DAYS: Record<string, number> = { '1d': 1, '7d': 7, '14d': 14, '1month': 30, '3month': 90 };

function isValidRegex(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

/** The project columns a create or update sets, from GitLab's parameters and their aliases. */
function attributeChanges(
  input: ProjectAttributeParams,
  current: Pick<Project, 'containerExpirationPolicyEnabled' | 'containerExpirationPolicyCadence' | 'createdAt'> | null,
): ProjectChanges {
  const changes: ProjectChanges = {};
  const set = <Key extends keyof ProjectChanges>(key: Key, value: ProjectChanges[Key] | undefined) => {
    if (value !== undefined) changes[key] = value;
  };
  set('description', input.description);
  set('visibility', input.visibility);
  set('defaultBranch', input.default_branch);
  set('topics', input.topics ?? input.tag_list);
  const toggle = (enabled: boolean | undefined) =>
    enabled === undefined ? undefined : enabled ? ('enabled' as const) : ('disabled' as const);
  set('issuesAccessLevel', input.issues_access_level ?? toggle(input.issues_enabled));
  set('mergeRequestsAccessLevel', input.merge_requests_access_level ?? toggle(input.merge_requests_enabled));
  set('wikiAccessLevel', input.wiki_access_level ?? toggle(input.wiki_enabled));
  set('buildsAccessLevel', input.builds_access_level ?? toggle(input.jobs_enabled));
  set('snippetsAccessLevel', input.snippets_access_level ?? toggle(input.snippets_enabled));
  set('containerRegistryAccessLevel', input.container_registry_access_level ?? toggle(input.container_registry_enabled));
  set('repositoryAccessLevel', input.repository_access_level);
  set('forkingAccessLevel', input.forking_access_level);
  set('analyticsAccessLevel', input.analytics_access_level);
  set('securityAndComplianceAccessLevel', input.security_and_compliance_access_level);
  set('releasesAccessLevel', input.releases_access_level);
  set('environmentsAccessLevel', input.environments_access_level);
  set('featureFlagsAccessLevel', input.feature_flags_access_level);
  set('infrastructureAccessLevel', input.infrastructure_access_level);
  set('monitorAccessLevel', input.monitor_access_level);
  set('pagesAccessLevel', input.pages_access_level);
  set('requestAccessEnabled', input.request_access_enabled);
  set('sharedRunnersEnabled', input.shared_runners_enabled);
  set('lfsEnabled', input.lfs_enabled);
  set('packagesEnabled', input.packages_enabled);
  set('publicJobs', input.public_jobs ?? input.public_builds);
  set('emailsDisabled', input.emails_disabled ?? (input.emails_enabled === undefined ? undefined : !input.emails_enabled));
  set('resolveOutdatedDiffDiscussions', input.resolve_outdated_diff_discussions);
  set('onlyAllowMergeIfPipelineSucceeds', input.only_allow_merge_if_pipeline_succeeds);
  set('allowMergeOnSkippedPipeline', input.allow_merge_on_skipped_pipeline);
  set('onlyAllowMergeIfAllDiscussionsAreResolved', input.only_allow_merge_if_all_discussions_are_resolved);
  set('removeSourceBranchAfterMerge', input.remove_source_branch_after_merge);
  set('printingMergeRequestLinkEnabled', input.printing_merge_request_link_enabled);
  set('mergeMethod', input.merge_method);
  set('squashOption', input.squash_option);
  set('ciConfigPath', input.ci_config_path);
  const policy = input.container_expiration_policy_attributes;
  if (policy) {
    const problems: Record<string, string[]> = {};
    const nameRegex = policy.name_regex_delete ?? policy.name_regex;
    for (const [field, pattern] of [
      ['name_regex', nameRegex],
      ['name_regex_keep', policy.name_regex_keep],
    ] as const) {
      if (pattern && !isValidRegex(pattern)) problems[`container_expiration_policy.${field}`] = ['not valid RE2 syntax'];
    }
    if (Object.keys(problems).length > 0) throw new FieldValidationError(problems);
    set('containerExpirationPolicyCadence', policy.cadence);
    set('containerExpirationPolicyEnabled', policy.enabled);
    set('containerExpirationPolicyKeepN', policy.keep_n);
    set('containerExpirationPolicyOlderThan', policy.older_than);
    set('containerExpirationPolicyNameRegex', nameRegex);
    set('containerExpirationPolicyNameRegexKeep', policy.name_regex_keep);
    // The next cleanup runs one cadence after the policy is enabled or its cadence changes.
    const enabled = policy.enabled ?? current?.containerExpirationPolicyEnabled ?? false;
    const cadence = policy.cadence ?? current?.containerExpirationPolicyCadence ?? '1d';
    if (policy.enabled !== undefined || policy.cadence !== undefined) {
      changes.containerExpirationPolicyNextRunAt = enabled ? new Date(Date.now() + (CADENCE_DAYS[cadence] ?? 1) * 86_400_000) : null;
    }
  }
  return changes;
}

function describeValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.join(', ');
  return String(value);
}

function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/**
 * Filters every project list shares, from its query. `owned` means Owner access, as GitLab's
 * owned projects are; `membership` any access.
 */
export function projectListFilter(
  viewer: Viewer,
  query: Partial<
    Pick<
      ProjectListQuery,
      | 'archived'
      | 'visibility'
      | 'search'
      | 'min_access_level'
      | 'owned'
      | 'membership'
      | 'starred'
      | 'with_issues_enabled'
      | 'with_merge_requests_enabled'
    >
  >,
): ProjectFilter {
  const userId = viewer.kind === 'user' ? viewer.userId : 0;
  const minimum = Math.max(query.min_access_level ?? 0, query.owned ? 50 : 0, query.membership ? 10 : 0);
  return {
    ...(query.archived !== undefined ? { archived: query.archived } : {}),
    ...(query.visibility ? { visibility: query.visibility } : {}),
    ...(query.search ? { search: query.search } : {}),
    ...(minimum > 0 ? { minAccessLevel: minimum } : {}),
    ...(query.starred ? { starredBy: userId } : {}),
    ...(query.with_issues_enabled ? { withIssuesEnabled: true } : {}),
    ...(query.with_merge_requests_enabled ? { withMergeRequestsEnabled: true } : {}),
  };
}

/** How project lists default `order_by` and `sort`, as GitLab does. */
export const PROJECT_ORDER_DEFAULTS = { default: 'created_at', sort: 'desc' } as const;

/** A list's order; `search` ranks by similarity when ordered so. */
export function projectOrder(order: { by: ProjectOrder; sort: 'asc' | 'desc' }, search: string | undefined) {
  return { ...order, ...(search ? { search } : {}) };
}

/** Projects: GitLab's create, read, update and delete, sharing with groups, stars and lists. */
export class ProjectsService {
  readonly #em: EntityManager;
  readonly #projects: ProjectStore;
  readonly #readModel: ProjectsReadModel;
  readonly #namespaces: NamespaceStore;
  readonly #groups: GroupLookup;
  readonly #members: MembersService;
  readonly #access: AccessPolicy;
  readonly #users: UserStore;
  readonly #bots: ResourceBots;

  readonly #settings: ApplicationSettingsSource;
  readonly #containerRegistry: ContainerRegistryTags;
  readonly #repositories: RepositoryCreation;
  readonly #logger: Logger;

  constructor(options: {
    em: EntityManager;
    projects: ProjectStore;
    /** What the GETs read through, without entities. */
    readModel: ProjectsReadModel;
    namespaces: NamespaceStore;
    groups: GroupLookup;
    members: MembersService;
    access: AccessPolicy;
    users: UserStore;
    /** A deleted project's bots go with it. */
    bots: ResourceBots;
    /** Default visibility and projects limit come from the application settings. */
    settings: ApplicationSettingsSource;
    /** A project whose container registry has tags keeps its path. */
    containerRegistry: ContainerRegistryTags;
    /** Review creates a new project's repository, on the storage it draws. */
    repositories: RepositoryCreation;
    logger: Logger;
  }) {
    this.#em = options.em;
    this.#repositories = options.repositories;
    this.#logger = options.logger;
    this.#settings = options.settings;
    this.#containerRegistry = options.containerRegistry;
    this.#projects = options.projects;
    this.#readModel = options.readModel;
    this.#namespaces = options.namespaces;
    this.#groups = options.groups;
    this.#members = options.members;
    this.#access = options.access;
    this.#users = options.users;
    this.#bots = options.bots;
  }

  /** `GET /projects/:id`: a project the viewer may see, in the full view, with their permissions; NotFoundError otherwise. */
  async details(viewer: Viewer, idOrPath: number | string, options: { customAttributes?: boolean } = {}): Promise<ProjectDetailsRow> {
    const project = await this.#readModel.details({ viewer, idOrPath, customAttributes: options.customAttributes === true });
    if (!project) throw new NotFoundError('Project');
    return project;
  }

  /** The id of a project the viewer may see; NotFoundError otherwise. */
  async visibleId(viewer: Viewer, idOrPath: number | string): Promise<number> {
    const id = await this.#readModel.visibleId(viewer, idOrPath);
    if (id === undefined) throw new NotFoundError('Project');
    return id;
  }

  async create(viewer: Viewer, actor: EventActor, input: CreateProjectParams, avatar?: AvatarChange): Promise<Project> {
    if (viewer.kind !== 'user') throw new UnauthorizedError();
    return this.#create({ viewer, actor, input, namespace: await this.#targetNamespace(viewer, input.namespace_id), avatar });
  }

  /**
   * GitLab's fork: a project in the caller's personal namespace (or the one named) with the
   * source's name, path, description and at most its visibility, linked to the source
   * (`forked_from_project`). Whoever may read the source's code forks it; review copies its
   * repository when it learns of the new project.
   */
  async fork(viewer: Viewer, actor: EventActor, input: ForkProjectParams): Promise<Project> {
    if (viewer.kind !== 'user') throw new UnauthorizedError();
    const { project: source, accessLevel } = await this.#access.project(viewer, input.id);
    const readsCode = isAdmin(viewer) || accessLevel >= ACCESS_LEVEL.REPORTER || source.visibility !== 'private';
    if (!readsCode || source.forkingAccessLevel === 'disabled' || source.repositoryAccessLevel === 'disabled') throw new ForbiddenError();
    const namespace = await this.#forkNamespace(viewer, input).catch((error: unknown) => {
      if (error instanceof NotFoundError || error instanceof FieldValidationError) throw new NotFoundError('Target Namespace');
      throw error;
    });
    const asked = input.visibility ?? source.visibility;
    const visibility = VISIBILITY_RANK[asked as Visibility] <= VISIBILITY_RANK[source.visibility as Visibility] ? asked : source.visibility;
    return this.#create({
      viewer,
      actor,
      input: {
        name: input.name ?? source.name,
        path: input.path ?? source.path,
        description: input.description ?? source.description ?? undefined,
        visibility: visibility as Visibility,
      },
      namespace,
      forkedFromProjectId: source.id,
    });
  }

  /** Where a fork goes: `namespace_id`, `namespace_path` or the deprecated `namespace`, else the caller's own namespace. */
  async #forkNamespace(viewer: Viewer & { kind: 'user' }, input: ForkProjectParams): Promise<Namespace> {
    const named = input.namespace_id ?? input.namespace_path ?? input.namespace;
    if (typeof named !== 'string') return this.#targetNamespace(viewer, named);
    const found = await this.#namespaces.findByFullPath(named);
    if (!found) throw new NotFoundError('Target Namespace');
    return this.#targetNamespace(viewer, found.id);
  }

  /** Removes the link of a fork to the project it was forked from (owners); false when it is no fork. */
  async unlinkFork(viewer: Viewer, actor: EventActor, idOrPath: number | string): Promise<boolean> {
    const { project, namespace } = await this.#access.projectWith(viewer, idOrPath, ACCESS_LEVEL.OWNER);
    if (project.forkedFromProjectId === null || project.forkedFromProjectId === undefined) return false;
    const from = String(project.forkedFromProjectId);
    project.forkedFromProjectId = null;
    await this.#em.transactional(async (em) => {
      await this.#projects.flush();
      const known = await this.#namespaces.withAncestors([namespace]);
      const change = { attribute: 'forked_from_project_id', from, to: '' };
      recordEvent(em, { ...projectUpdatedEvent(projectSnapshot(project, known), [change]), actor });
    });
    return true;
  }

  async #create(options: {
    viewer: Viewer & { kind: 'user' };
    actor: EventActor;
    input: Omit<CreateProjectParams, 'namespace_id'>;
    namespace: Namespace;
    avatar?: AvatarChange | undefined;
    forkedFromProjectId?: number;
  }): Promise<Project> {
    const { viewer, actor, input, namespace, avatar } = options;
    const name = input.name ?? input.path ?? '';
    const path = input.path ?? pathFromName(name);
    const problems: Record<string, string[]> = {};
    if (!isValidName(name)) problems.name = [NAME_MESSAGE];
    if (!isValidPath(path)) problems.path = [PATH_MESSAGE];
    if (Object.keys(problems).length > 0) throw new FieldValidationError(problems);
    const given = attributeChanges(input, null);
    checkRestrictedVisibility(this.#settings.current(), viewer, given.visibility);
    // Without a visibility, the instance's default, lowered to what the namespace allows.
    const attributes = { ...given, visibility: given.visibility ?? this.#defaultVisibility(namespace) };
    this.#checkVisibility(namespace, attributes.visibility as Visibility);
    if (namespace.kind === 'user') await this.#checkProjectLimit(namespace);

    const created = await this.#em.transactional(async (em) => {
      const project = await this.#projects.insert({
        ...attributes,
        namespaceId: namespace.id,
        name,
        path,
        creatorId: viewer.userId,
        forkedFromProjectId: options.forkedFromProjectId ?? null,
      } as NewProject);
      avatar?.applyTo(project, 'project');
      const source = projectSource(project, namespace);
      if (namespace.kind === 'user' && namespace.ownerId != null) {
        await this.#members.addMember({ source, userId: namespace.ownerId, accessLevel: ACCESS_LEVEL.OWNER, actor });
      } else {
        // A developer allowed to create projects in a group maintains what they create, as in GitLab.
        const level = (await this.#access.projectAccessLevels(viewer, [project.id])).get(project.id) ?? 0;
        if (level < ACCESS_LEVEL.MAINTAINER) {
          await this.#members.addMember({ source, userId: viewer.userId, accessLevel: ACCESS_LEVEL.MAINTAINER, actor });
        }
      }
      const known = await this.#namespaces.withAncestors([namespace]);
      recordEvent(em, { ...projectCreatedEvent(projectSnapshot(project, known)), actor });
      return project;
    });
    await this.#createRepository(created);
    return created;
  }

  /**
   * Asks review for the new project's repository, so that the answer shows the storage it was
   * created on (`repository_storage`). When review cannot answer now, its consumer of the
   * creation event creates the repository later and tells where (`review.repository.storage_changed`).
   */
  async #createRepository(project: Project): Promise<void> {
    try {
      const storage = await this.#repositories.create({ projectId: project.id, forkedFromProjectId: project.forkedFromProjectId ?? null });
      project.repositoryStorage = storage;
      await this.#projects.setRepositoryStorage(project.id, storage);
    } catch (error) {
      this.#logger.warn({ err: error, projectId: project.id }, 'repository not created with its project; review creates it from the event');
    }
  }

  /** The project when the viewer may change its settings (maintainers): 404 or 403 otherwise, before anything uploaded is read. */
  editable(viewer: Viewer, idOrPath: number | string): Promise<{ project: Project; namespace: Namespace }> {
    return this.#access.projectWith(viewer, idOrPath, ACCESS_LEVEL.MAINTAINER);
  }

  async update(viewer: Viewer, actor: EventActor, input: UpdateProjectParams, avatar?: AvatarChange): Promise<Project> {
    const { project, namespace } = await this.editable(viewer, input.id);
    const changes = attributeChanges(input, project);
    const problems: Record<string, string[]> = {};
    if (input.name !== undefined) {
      if (isValidName(input.name)) changes.name = input.name;
      else problems.name = [NAME_MESSAGE];
    }
    if (input.path !== undefined) {
      if (isValidPath(input.path)) changes.path = input.path;
      else problems.path = [PATH_MESSAGE];
    }
    if (Object.keys(problems).length > 0) throw new FieldValidationError(problems);
    if (changes.visibility !== undefined && changes.visibility !== project.visibility) {
      checkRestrictedVisibility(this.#settings.current(), viewer, changes.visibility);
    }
    if (changes.visibility !== undefined) this.#checkVisibility(namespace, changes.visibility as Visibility);
    if (changes.path !== undefined && changes.path !== project.path && (await anyHasContainerTags(this.#containerRegistry, [project.id]))) {
      throw new RefusedError(CONTAINER_REGISTRY_TAGS_ERRORS.projectPathChange);
    }

    return this.#em.transactional(async (em) => {
      const recorded: AttributeChange[] = [];
      const fields = project as unknown as Record<string, unknown>;
      for (const [key, value] of Object.entries(changes)) {
        const before = fields[key];
        if (describeValue(before) === describeValue(value) && (before === null) === (value === null)) continue;
        recorded.push({ attribute: snakeCase(key), from: describeValue(before), to: describeValue(value) });
        fields[key] = value;
      }
      if (avatar) {
        const change = avatar.applyTo(project, 'project');
        if (change.from !== change.to) recorded.push(change);
      }
      if (recorded.length === 0) return project;
      project.lastActivityAt = new Date();
      await this.#projects.flush();
      const known = await this.#namespaces.withAncestors([namespace]);
      recordEvent(em, { ...projectUpdatedEvent(projectSnapshot(project, known), recorded), actor });
      return project;
    });
  }

  /**
   * Sets the default branch when a push gives the project's empty repository its first branch:
   * whoever may push it (developers and above) sets it, unlike other project settings.
   */
  async setDefaultBranch(viewer: Viewer, actor: EventActor, projectId: number, branch: string): Promise<void> {
    const { project, namespace } = await this.#access.projectWith(viewer, projectId, ACCESS_LEVEL.DEVELOPER);
    if (project.defaultBranch === branch) return;
    await this.#em.transactional(async (em) => {
      const change: AttributeChange = { attribute: 'default_branch', from: project.defaultBranch, to: branch };
      project.defaultBranch = branch;
      project.lastActivityAt = new Date();
      await this.#projects.flush();
      const known = await this.#namespaces.withAncestors([namespace]);
      recordEvent(em, { ...projectUpdatedEvent(projectSnapshot(project, known), [change]), actor });
    });
  }

  /** Archiving makes a project read-only; only maintainers and above toggle it. */
  async setArchived(viewer: Viewer, actor: EventActor, idOrPath: number | string, archived: boolean): Promise<Project> {
    const { project, namespace } = await this.#access.projectWith(viewer, idOrPath, ACCESS_LEVEL.MAINTAINER);
    if (project.archived === archived) return project;
    return this.#em.transactional(async (em) => {
      project.archived = archived;
      await this.#projects.flush();
      const known = await this.#namespaces.withAncestors([namespace]);
      recordEvent(em, {
        ...projectUpdatedEvent(projectSnapshot(project, known), [{ attribute: 'archived', from: String(!archived), to: String(archived) }]),
        actor,
      });
      return project;
    });
  }

  /**
   * Deleting a project takes Owner, as in GitLab. With a `deletion_adjourned_period` the project
   * is only marked for deletion, and deleted once the period passed (`deleteDue`); a marked
   * project is deleted at once with `permanently_remove` and its full path, as GitLab asks.
   * Answers the ids of the bots deleted with the project, none while it is only marked.
   */
  async delete(
    viewer: Viewer,
    actor: EventActor,
    idOrPath: number | string,
    options: { permanentlyRemove?: boolean | undefined; fullPath?: string | undefined } = {},
  ): Promise<number[]> {
    const { project, namespace } = await this.#access.projectWith(viewer, idOrPath, ACCESS_LEVEL.OWNER);
    const adjourned = this.#settings.current().deletionAdjournedPeriod > 0;
    if (adjourned && !project.markedForDeletionAt) {
      await this.#mark(project, namespace, actor, true);
      return [];
    }
    if (adjourned && !options.permanentlyRemove) throw new RefusedError('Project has been already marked for deletion');
    if (adjourned && options.fullPath !== `${namespace.fullPath}/${project.path}`) {
      throw new RefusedError('`full_path` is incorrect. You must enter the complete path for the project.');
    }
    return this.#remove(project, namespace, actor);
  }

  /** Takes a project's deletion mark away (GitLab's restore); a project not marked is answered as it is. */
  async restore(viewer: Viewer, actor: EventActor, idOrPath: number | string): Promise<Project> {
    const { project, namespace } = await this.#access.projectWith(viewer, idOrPath, ACCESS_LEVEL.OWNER);
    if (project.markedForDeletionAt) await this.#mark(project, namespace, actor, false);
    return project;
  }

  /** Deletes the projects marked longer ago than `deletion_adjourned_period` days, as their marker; answers how many. */
  async deleteDue(now = new Date()): Promise<number> {
    const days = this.#settings.current().deletionAdjournedPeriod;
    const due = await this.#projects.markedBefore(new Date(now.getTime() - days * 86_400_000));
    const markers = new Map(
      (await this.#users.findByIds(due.flatMap((project) => project.markedForDeletionById ?? []))).map((user) => [user.id, user]),
    );
    for (const project of due) {
      const namespace = await this.#namespaces.findById(project.namespaceId);
      if (!namespace) continue;
      const marker = project.markedForDeletionById === null ? undefined : markers.get(project.markedForDeletionById ?? 0);
      await this.#remove(project, namespace, marker ? { id: marker.id, username: marker.username, name: marker.name } : null);
    }
    return due.length;
  }

  async #mark(project: Project, namespace: Namespace, actor: EventActor, marked: boolean): Promise<void> {
    const from = project.markedForDeletionAt?.toISOString() ?? '';
    await this.#em.transactional(async (em) => {
      project.markedForDeletionAt = marked ? new Date() : null;
      project.markedForDeletionById = marked ? actor.id : null;
      await this.#projects.flush();
      const known = await this.#namespaces.withAncestors([namespace]);
      const to = project.markedForDeletionAt?.toISOString() ?? '';
      recordEvent(em, {
        ...projectUpdatedEvent(projectSnapshot(project, known), [{ attribute: 'marked_for_deletion_at', from, to }]),
        actor,
      });
    });
  }

  /** Deletes the project with its bots; answers the bots' ids. */
  async #remove(project: Project, namespace: Namespace, actor: EventActor | null): Promise<number[]> {
    return this.#em.transactional(async (em) => {
      const known = await this.#namespaces.withAncestors([namespace]);
      const snapshot = projectSnapshot(project, known);
      const botIds = await this.#bots.removeOf({ projectIds: [project.id], groupIds: [] }, actor);
      await this.#projects.remove([project]);
      recordEvent(em, { ...projectDeletedEvent(snapshot), actor });
      return botIds;
    });
  }

  async share(
    viewer: Viewer,
    actor: EventActor,
    input: { id: number | string; group_id: number; group_access: number; expires_at?: string | null | undefined },
  ): Promise<ProjectGroupLink> {
    const { project, namespace, accessLevel } = await this.#access.projectWith(viewer, input.id, ACCESS_LEVEL.MAINTAINER);
    const { group } = await this.#access.group(viewer, input.group_id);
    checkShareGrant(viewer, accessLevel, input);
    const known = await this.#namespaces.withAncestors([namespace, group]);
    const lockedBy =
      namespace.kind === 'group'
        ? namespace.traversalIds.map((id) => known.get(id)).find((ancestor) => ancestor?.shareWithGroupLock)
        : undefined;
    if (lockedBy) throw new ForbiddenError('Sharing projects of this group with other groups is locked');
    return this.#em.transactional(async (em) => {
      const link = await this.#projects.insertShare({
        projectId: project.id,
        groupId: group.id,
        groupAccess: input.group_access,
        expiresAt: input.expires_at ?? null,
      });
      recordEvent(em, {
        ...projectSharedEvent({
          project: projectSnapshot(project, known),
          group: groupSnapshot(group, known),
          groupAccess: link.groupAccess,
          expiresAt: link.expiresAt ?? null,
        }),
        actor,
      });
      return link;
    });
  }

  async unshare(viewer: Viewer, actor: EventActor, idOrPath: number | string, groupId: number): Promise<void> {
    const { project, namespace } = await this.#access.projectWith(viewer, idOrPath, ACCESS_LEVEL.MAINTAINER);
    const link = await this.#projects.findShare(project.id, groupId);
    const group = link && (await this.#groups.findById(link.groupId));
    if (!link || !group) throw new NotFoundError('Group Link');
    await this.#em.transactional(async (em) => {
      const known = await this.#namespaces.withAncestors([namespace, group]);
      await this.#projects.removeShare(link);
      recordEvent(em, { ...projectUnsharedEvent({ project: projectSnapshot(project, known), group: groupSnapshot(group, known) }), actor });
    });
  }

  /** Stars a project; 304 when it already is. */
  async star(viewer: Viewer, idOrPath: number | string): Promise<Project> {
    if (viewer.kind !== 'user') throw new UnauthorizedError();
    const { project } = await this.#access.project(viewer, idOrPath);
    if (!(await this.#projects.star(viewer.userId, project.id))) throw new NotModifiedError();
    return project;
  }

  /** Unstars a project; 304 when it was not starred. */
  async unstar(viewer: Viewer, idOrPath: number | string): Promise<Project> {
    if (viewer.kind !== 'user') throw new UnauthorizedError();
    const { project } = await this.#access.project(viewer, idOrPath);
    if (!(await this.#projects.unstar(viewer.userId, project.id))) throw new NotModifiedError();
    return project;
  }

  /** A page of a project list, read for `read`'s view. */
  list(options: {
    viewer: Viewer;
    filter: ProjectFilter;
    order: { by: ProjectOrder; sort: 'asc' | 'desc'; search?: string };
    window: PageWindow;
    read: ProjectListRead;
  }): Promise<ProjectListPage> {
    return this.#readModel.list(options);
  }

  /** The personal namespace of a user named by id or username (null without one); NotFoundError for nobody. */
  async personalNamespaceIdOf(userIdOrUsername: string): Promise<number | null> {
    const user = await this.#users.findByIdOrUsername(userIdOrUsername);
    if (!user) throw new NotFoundError('User');
    return (await this.#namespaces.personalNamespaceOf(user.id))?.id ?? null;
  }

  /** Keyset pagination by id. */
  listAfter(options: { viewer: Viewer; filter: ProjectFilter; keyset: Keyset; read: ProjectListRead }): Promise<ProjectKeysetPage> {
    return this.#readModel.listAfter(options);
  }

  /** A project's forks the viewer may see; NotFoundError for a project they may not see. */
  async forks(options: {
    viewer: Viewer;
    idOrPath: number | string;
    filter: ProjectFilter;
    order: { by: ProjectOrder; sort: 'asc' | 'desc'; search?: string };
    window: PageWindow;
    read: ProjectListRead;
  }): Promise<ProjectListPage> {
    const { idOrPath, ...list } = options;
    const forkedFromProjectId = await this.visibleId(options.viewer, idOrPath);
    return this.#readModel.list({ ...list, filter: { ...list.filter, forkedFromProjectId } });
  }

  /** A group's projects: its own (with `includeSubgroups` its descendants' too), and with `withShared` those shared with it. */
  async groupProjects(options: {
    viewer: Viewer;
    groupIdOrPath: number | string;
    includeSubgroups: boolean;
    withShared: boolean;
    filter: ProjectFilter;
    order: { by: ProjectOrder; sort: 'asc' | 'desc'; search?: string };
    window: PageWindow;
    read: ProjectListRead;
  }): Promise<ProjectListPage> {
    const { groupIdOrPath, includeSubgroups, withShared, ...list } = options;
    const { group } = await this.#access.group(options.viewer, groupIdOrPath);
    const namespaceIds = includeSubgroups ? (await this.#groups.subtreeOf(group)).map((subgroup) => subgroup.id) : [group.id];
    return this.#readModel.list({
      ...list,
      filter: { ...list.filter, namespaceIds, ...(withShared ? { orSharedWithGroupId: group.id } : {}) },
    });
  }

  /** Projects shared with a group. */
  async sharedProjects(options: {
    viewer: Viewer;
    groupIdOrPath: number | string;
    filter: ProjectFilter;
    order: { by: ProjectOrder; sort: 'asc' | 'desc'; search?: string };
    window: PageWindow;
    read: ProjectListRead;
  }): Promise<ProjectListPage> {
    const { groupIdOrPath, ...list } = options;
    const { group } = await this.#access.group(options.viewer, groupIdOrPath);
    return this.#readModel.list({ ...list, filter: { ...list.filter, sharedWithGroupId: group.id } });
  }

  /** Where a new project goes: the given namespace if the viewer may create there, else their own. */
  async #targetNamespace(viewer: Viewer & { kind: 'user' }, namespaceId: number | undefined): Promise<Namespace> {
    if (namespaceId === undefined) {
      const own = await this.#namespaces.personalNamespaceOf(viewer.userId);
      if (!own) throw new NotFoundError('Namespace');
      return own;
    }
    const namespace = await this.#namespaces.findById(namespaceId);
    if (!namespace) throw new NotFoundError('Namespace');
    if (namespace.kind === 'user') {
      if (namespace.ownerId !== viewer.userId && !viewer.isAdmin) throw new FieldValidationError({ namespace: ['is not valid'] });
      return namespace;
    }
    const { accessLevel } = await this.#access.group(viewer, namespace.id).catch(() => {
      throw new NotFoundError('Namespace');
    });
    const required =
      namespace.projectCreationLevel === 'developer'
        ? ACCESS_LEVEL.DEVELOPER
        : namespace.projectCreationLevel === 'maintainer'
          ? ACCESS_LEVEL.MAINTAINER
          : Infinity;
    if (!viewer.isAdmin && accessLevel < required) throw new FieldValidationError({ namespace: ['is not valid'] });
    return namespace;
  }

  /** A project is never more visible than the group it is in. */
  #defaultVisibility(namespace: Namespace): Visibility {
    const preferred = this.#settings.current().defaultProjectVisibility as Visibility;
    const ceiling = namespace.visibility as Visibility;
    return VISIBILITY_RANK[preferred] <= VISIBILITY_RANK[ceiling] ? preferred : ceiling;
  }

  #checkVisibility(namespace: Namespace, visibility: Visibility): void {
    if (namespace.kind !== 'group') return;
    if (VISIBILITY_RANK[visibility] > VISIBILITY_RANK[namespace.visibility as Visibility]) {
      throw new FieldValidationError({
        visibility_level: [`${visibility} is not allowed in a ${namespace.visibility} group.`],
      });
    }
  }

  async #checkProjectLimit(namespace: Namespace): Promise<void> {
    const owner = namespace.ownerId == null ? null : await this.#users.findById(namespace.ownerId);
    if (!owner) return;
    // An external user has no personal projects, whatever limit an older record still holds.
    if (owner.external || (await this.#projects.countInNamespace(namespace.id)) >= owner.projectsLimit) {
      throw new FieldValidationError({
        limit_reached: [`Your project limit is ${owner.projectsLimit} projects! Please contact your administrator to increase it`],
      });
    }
  }
}
