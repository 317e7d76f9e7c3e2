import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AttributeChange } from '@platform/proto/identity/v1/events';
import { FieldValidationError, ForbiddenError, InputError, NotFoundError, UnauthorizedError } from '@platform/errors';
import type { EventActor } from '@platform/events';
import { recordEvent } from '@platform/events/database';
import { VISIBILITIES, VISIBILITY_RANK, type Group, type Visibility } from '../access/namespace.entity.ts';
import type { NamespaceStore } from '../access/namespaces-store.ts';
import { isValidName, isValidPath, NAME_MESSAGE, PATH_MESSAGE } from '../access/namespace.schemas.ts';
import type { PageWindow } from '@platform/db';
import type { ApplicationSettingsSource } from '@platform/admin-client';
import type { ContainerRegistryTags } from '@platform/packages-client';
import { ACCESS_LEVEL } from '@platform/identity-client';
import { CONTAINER_REGISTRY_TAGS_ERRORS, groupHasContainerTags } from '../projects/container-registry-paths.ts';
import { checkRestrictedVisibility } from '../access/restricted-visibility.ts';
import type { Keyset } from '../access/sql-helpers.ts';
import type { ProjectStore } from '../projects/projects-store.ts';
import { projectDeletedEvent, projectSnapshot } from '../projects/projects.events.ts';
import type { UserStore } from '../users/users-store.ts';
import type { ResourceBots } from '../resource-access-tokens/resource-bots.ts';
import type { Viewer } from '../access/access-sql.ts';
import { checkShareGrant, isAdmin, requireLevel, type AccessPolicy } from '../access/access-policy.ts';
import type { MembersService } from '../members/members-service.ts';
import type { GroupGroupLink } from './group.entity.ts';
import type { GroupStore, NewGroup } from './groups-store.ts';
import type { GroupFilter, GroupListExtras, GroupOrder, GroupsReadModel } from './groups-read-model.ts';
import type { CreateGroupParams, GroupAttributeParams, GroupListQuery, UpdateGroupParams } from './groups.schemas.ts';
import type { GroupDetailsRow } from './group-rows.ts';
import { groupCreatedEvent, groupDeletedEvent, groupSharedEvent, groupUnsharedEvent, groupUpdatedEvent } from './groups.events.ts';
import { groupSnapshot } from '../access/group-snapshot.ts';
import type { AvatarChange } from '../avatars/avatar-storage.ts';

type GroupChanges = Partial<Omit<NewGroup, 'name' | 'path'>>;

/** The group columns a create or update sets, from GitLab's parameters and their aliases. */
function attributeChanges(input: GroupAttributeParams): GroupChanges {
  const changes: GroupChanges = {};
  const set = <Key extends keyof GroupChanges>(key: Key, value: GroupChanges[Key] | undefined) => {
    if (value !== undefined) changes[key] = value;
  };
  set('description', input.description);
  set('visibility', input.visibility);
  set('shareWithGroupLock', input.share_with_group_lock);
  set('requireTwoFactorAuthentication', input.require_two_factor_authentication);
  set('twoFactorGracePeriod', input.two_factor_grace_period);
  set('projectCreationLevel', input.project_creation_level);
  set('autoDevopsEnabled', input.auto_devops_enabled);
  set('subgroupCreationLevel', input.subgroup_creation_level);
  set('emailsDisabled', input.emails_disabled ?? (input.emails_enabled === undefined ? undefined : !input.emails_enabled));
  set('mentionsDisabled', input.mentions_disabled);
  set('lfsEnabled', input.lfs_enabled);
  set('requestAccessEnabled', input.request_access_enabled);
  set('defaultBranchProtection', input.default_branch_protection);
  return changes;
}

function validateNameAndPath(input: { name?: string | undefined; path?: string | undefined }): void {
  const problems: Record<string, string[]> = {};
  if (input.name !== undefined && !isValidName(input.name)) problems.name = [NAME_MESSAGE];
  if (input.path !== undefined && !isValidPath(input.path)) problems.path = [PATH_MESSAGE];
  if (Object.keys(problems).length > 0) throw new FieldValidationError(problems);
}

function describeValue(value: unknown): string {
  return value === null || value === undefined ? '' : String(value);
}

function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** GitLab's runner registration tokens for groups carry this prefix. */
function generateRunnersToken(): string {
  return `GR1348941${randomBytes(15).toString('base64url')}`;
}

/**
 * Which groups `GET /groups` (and its sub-lists) hold, with GitLab's precedence: `owned`, then
 * `min_access_level`, then `all_available` (default true for administrators, false for users:
 * then only groups they belong to, or to something inside, are listed; anonymous callers see
 * public groups).
 */
export function groupListFilter(viewer: Viewer, query: GroupListQuery): GroupFilter {
  const filter: GroupFilter = {
    ...(query.skip_groups ? { skipIds: query.skip_groups } : {}),
    ...(query.search ? { search: query.search } : {}),
    ...(query.top_level_only ? { topLevelOnly: true } : {}),
    ...(query.custom_attributes && isAdmin(viewer) ? { customAttributes: query.custom_attributes } : {}),
  };
  const userId = viewer.kind === 'user' ? viewer.userId : 0;
  if (query.owned) return { ...filter, ownedBy: userId };
  if (query.min_access_level !== undefined) return { ...filter, minAccessLevel: query.min_access_level };
  if (viewer.kind === 'anonymous') return filter;
  const allAvailable = query.all_available ?? viewer.isAdmin;
  return allAvailable ? filter : { ...filter, relatedOnly: true };
}

/** Groups: GitLab's create, read, update and delete, lists, sharing and custom attributes. */
export class GroupsService {
  readonly #em: EntityManager;
  readonly #groups: GroupStore;
  readonly #readModel: GroupsReadModel;
  readonly #projects: ProjectStore;
  readonly #namespaces: NamespaceStore;
  readonly #members: MembersService;
  readonly #access: AccessPolicy;
  readonly #users: UserStore;
  readonly #bots: ResourceBots;

  readonly #settings: ApplicationSettingsSource;
  readonly #containerRegistry: ContainerRegistryTags;

  constructor(options: {
    em: EntityManager;
    groups: GroupStore;
    /** What GETs read, without entities. */
    readModel: GroupsReadModel;
    projects: ProjectStore;
    namespaces: NamespaceStore;
    members: MembersService;
    access: AccessPolicy;
    users: UserStore;
    /** A deleted group's bots go with it, and those of its subgroups and projects. */
    bots: ResourceBots;
    /** The default visibility comes from the application settings. */
    settings: ApplicationSettingsSource;
    /** A group above a project whose container registry has tags keeps its path. */
    containerRegistry: ContainerRegistryTags;
  }) {
    this.#em = options.em;
    this.#settings = options.settings;
    this.#containerRegistry = options.containerRegistry;
    this.#groups = options.groups;
    this.#readModel = options.readModel;
    this.#projects = options.projects;
    this.#namespaces = options.namespaces;
    this.#members = options.members;
    this.#access = options.access;
    this.#users = options.users;
    this.#bots = options.bots;
  }

  list(options: {
    viewer: Viewer;
    filter: GroupFilter;
    order: { by: GroupOrder; sort: 'asc' | 'desc' };
    window: PageWindow;
    extras: GroupListExtras;
  }) {
    return this.#readModel.list(options);
  }

  /** Keyset pagination by id. */
  listAfter(options: { viewer: Viewer; filter: GroupFilter; keyset: Keyset; extras: GroupListExtras }) {
    return this.#readModel.listAfter(options);
  }

  /** A group's direct subgroups, or with `descendants` all groups below it. */
  async subgroups(options: {
    viewer: Viewer;
    idOrPath: number | string;
    descendants: boolean;
    filter: GroupFilter;
    order: { by: GroupOrder; sort: 'asc' | 'desc' };
    window: PageWindow;
    extras: GroupListExtras;
  }) {
    const { group } = await this.#access.group(options.viewer, options.idOrPath);
    const scope = options.descendants ? { descendantsOf: group.id } : { parentId: group.id };
    return this.#readModel.list({ ...options, filter: { ...options.filter, ...scope } });
  }

  /** A visible group with the viewer's access, its shares with groups the viewer may see, and its projects with `withProjects`. */
  async details(
    viewer: Viewer,
    idOrPath: number | string,
    options: { customAttributes: boolean; withProjects: boolean },
  ): Promise<GroupDetailsRow> {
    const group = await this.#readModel.details({ viewer, idOrPath, ...options });
    if (!group) throw new NotFoundError('Group');
    return group;
  }

  async create(viewer: Viewer, actor: EventActor, input: CreateGroupParams, avatar?: AvatarChange): Promise<Group> {
    if (viewer.kind !== 'user') throw new UnauthorizedError();
    validateNameAndPath(input);
    let parent: Group | null = null;
    if (input.parent_id !== undefined) {
      const { group, accessLevel } = await this.#access.group(viewer, input.parent_id);
      const required = group.subgroupCreationLevel === 'owner' ? ACCESS_LEVEL.OWNER : ACCESS_LEVEL.MAINTAINER;
      requireLevel(viewer, accessLevel, required);
      parent = group;
    } else if (!viewer.isAdmin) {
      const user = await this.#users.findById(viewer.userId);
      if (!user?.canCreateGroup || user.external) throw new ForbiddenError();
    }
    const given = attributeChanges(input);
    checkRestrictedVisibility(this.#settings.current(), viewer, given.visibility);
    // Without a visibility, the instance's default, lowered to what the parent allows.
    const preferred = this.#settings.current().defaultGroupVisibility as Visibility;
    const ceiling = (parent?.visibility ?? 'public') as Visibility;
    const visibility = (given.visibility ?? (VISIBILITY_RANK[preferred] <= VISIBILITY_RANK[ceiling] ? preferred : ceiling)) as Visibility;
    const attributes = { ...given, visibility };
    if (parent && VISIBILITY_RANK[visibility] > VISIBILITY_RANK[parent.visibility as Visibility]) {
      throw new FieldValidationError({
        visibility_level: [`${visibility} is not allowed since the parent group has a ${parent.visibility} visibility.`],
      });
    }
    return this.#em.transactional(async (em) => {
      const group = await this.#groups.insert(
        { ...attributes, name: input.name, path: input.path, runnersToken: generateRunnersToken() },
        parent,
      );
      avatar?.applyTo(group, 'group');
      const known = await this.#namespaces.withAncestors([group]);
      recordEvent(em, { ...groupCreatedEvent(groupSnapshot(group, known)), actor });
      await this.#members.addGroupMember({ groupId: group.id, userId: viewer.userId, accessLevel: ACCESS_LEVEL.OWNER, actor });
      return group;
    });
  }

  /** The group when the viewer may change its settings (owners): 404 or 403 otherwise, before anything uploaded is read. */
  async editable(viewer: Viewer, idOrPath: number | string): Promise<Group> {
    return (await this.#access.groupWith(viewer, idOrPath, ACCESS_LEVEL.OWNER)).group;
  }

  async update(viewer: Viewer, actor: EventActor, input: UpdateGroupParams, avatar?: AvatarChange): Promise<Group> {
    const group = await this.editable(viewer, input.id);
    validateNameAndPath(input);
    const changes: GroupChanges & { name?: string } = attributeChanges(input);
    if (input.name !== undefined) changes.name = input.name;
    if (changes.visibility !== undefined && changes.visibility !== group.visibility) {
      checkRestrictedVisibility(this.#settings.current(), viewer, changes.visibility);
      await this.#checkVisibility(group, changes.visibility as Visibility);
    }
    if (
      input.path !== undefined &&
      input.path !== group.path &&
      (await groupHasContainerTags({ registry: this.#containerRegistry, groups: this.#groups, projects: this.#projects, group }))
    ) {
      // GitLab adds it to the group's errors on `base`.
      throw new FieldValidationError({ base: [CONTAINER_REGISTRY_TAGS_ERRORS.groupPathChange] });
    }
    return this.#em.transactional(async (em) => {
      const recorded: AttributeChange[] = [];
      const fields = group as unknown as Record<string, unknown>;
      for (const [key, value] of Object.entries(changes)) {
        if (describeValue(fields[key]) === describeValue(value)) continue;
        recorded.push({ attribute: snakeCase(key), from: describeValue(fields[key]), to: describeValue(value) });
        fields[key] = value;
      }
      if (input.path !== undefined && input.path !== group.path) {
        recorded.push({ attribute: 'path', from: group.path, to: input.path });
        await this.#groups.changePath(group, input.path);
      }
      if (avatar) {
        const change = avatar.applyTo(group, 'group');
        if (change.from !== change.to) recorded.push(change);
      }
      if (recorded.length === 0) return group;
      await this.#groups.flush();
      const known = await this.#namespaces.withAncestors([group]);
      recordEvent(em, { ...groupUpdatedEvent(groupSnapshot(group, known), recorded), actor });
      return group;
    });
  }

  /**
   * Deletes a group with its subgroups and their projects, and the bots of each; Owner only, as in
   * GitLab. Answers the bots' ids.
   */
  async delete(viewer: Viewer, actor: EventActor, idOrPath: number | string): Promise<number[]> {
    const { group } = await this.#access.groupWith(viewer, idOrPath, ACCESS_LEVEL.OWNER);
    return this.#em.transactional(async (em) => {
      const subtree = await this.#groups.subtreeOf(group);
      const projects = await this.#projects.inNamespaces(subtree.map((member) => member.id));
      const known = await this.#namespaces.withAncestors(subtree);
      for (const project of projects) recordEvent(em, { ...projectDeletedEvent(projectSnapshot(project, known)), actor });
      for (const deleted of subtree) recordEvent(em, { ...groupDeletedEvent(groupSnapshot(deleted, known)), actor });
      const botIds = await this.#bots.removeOf(
        { projectIds: projects.map((project) => project.id), groupIds: subtree.map((deleted) => deleted.id) },
        actor,
      );
      await this.#projects.remove(projects);
      await this.#groups.remove(subtree);
      return botIds;
    });
  }

  /** Shares a group with another; members of the other get up to `group_access` in it. */
  async share(
    viewer: Viewer,
    actor: EventActor,
    input: { id: number | string; group_id: number; group_access: number; expires_at?: string | null | undefined },
  ): Promise<Group> {
    const { group, accessLevel } = await this.#access.groupWith(viewer, input.id, ACCESS_LEVEL.OWNER);
    const { group: sharedWith } = await this.#access.group(viewer, input.group_id);
    if (sharedWith.id === group.id) throw new InputError('group_id must name another group');
    checkShareGrant(viewer, accessLevel, input);
    const known = await this.#namespaces.withAncestors([group, sharedWith]);
    if (group.traversalIds.some((id) => known.get(id)?.shareWithGroupLock)) {
      throw new ForbiddenError('Sharing this group with other groups is locked');
    }
    return this.#em.transactional(async (em) => {
      const link = await this.#groups.insertShare({
        sharedGroupId: group.id,
        sharedWithGroupId: sharedWith.id,
        groupAccess: input.group_access,
        expiresAt: input.expires_at ?? null,
      });
      recordEvent(em, {
        ...groupSharedEvent({
          group: groupSnapshot(group, known),
          sharedWithGroup: groupSnapshot(sharedWith, known),
          groupAccess: link.groupAccess,
          expiresAt: link.expiresAt ?? null,
        }),
        actor,
      });
      return group;
    });
  }

  async unshare(viewer: Viewer, actor: EventActor, idOrPath: number | string, sharedWithGroupId: number): Promise<void> {
    const { group } = await this.#access.groupWith(viewer, idOrPath, ACCESS_LEVEL.OWNER);
    const link: GroupGroupLink | null = await this.#groups.findShare(group.id, sharedWithGroupId);
    const sharedWith = link && (await this.#groups.findById(link.sharedWithGroupId));
    if (!link || !sharedWith) throw new NotFoundError('Group Link');
    await this.#em.transactional(async (em) => {
      const known = await this.#namespaces.withAncestors([group, sharedWith]);
      await this.#groups.removeShare(link);
      recordEvent(em, {
        ...groupUnsharedEvent({ group: groupSnapshot(group, known), sharedWithGroup: groupSnapshot(sharedWith, known) }),
        actor,
      });
    });
  }

  /** A group is never more visible than its parent, nor less visible than what it contains. */
  async #checkVisibility(group: Group, visibility: Visibility): Promise<void> {
    const parent = group.parentId == null ? null : await this.#groups.findById(group.parentId);
    if (parent && VISIBILITY_RANK[visibility] > VISIBILITY_RANK[parent.visibility as Visibility]) {
      throw new FieldValidationError({
        visibility_level: [`${visibility} is not allowed since the parent group has a ${parent.visibility} visibility.`],
      });
    }
    const allowed = VISIBILITIES.filter((candidate) => VISIBILITY_RANK[candidate] <= VISIBILITY_RANK[visibility]);
    if (await this.#groups.hasChildMoreVisibleThan(group, allowed)) {
      throw new FieldValidationError({
        visibility_level: [`${visibility} is not allowed since there are sub-groups or projects with higher visibility.`],
      });
    }
  }
}
