import type { EntityManager } from '@mikro-orm/postgresql';
import { RefusedError } from '@platform/errors';
import type { EventActor } from '@platform/events';
import { recordEvent } from '@platform/events/database';
import type { ContainerRegistryTags } from '@platform/packages-client';
import type { PageWindow } from '@platform/db';
import { ACCESS_LEVEL } from '@platform/identity-client';
import type { Group } from '../access/namespace.entity.ts';
import type { NamespaceStore } from '../access/namespaces-store.ts';
import type { UserStore } from '../users/users-store.ts';
import type { Viewer } from '../access/access-sql.ts';
import { isAdmin, type AccessPolicy } from '../access/access-policy.ts';
import type { MembersService } from '../members/members-service.ts';
import type { GroupStore } from './groups-store.ts';
import type { GroupsReadModel } from './groups-read-model.ts';
import { PATH_TAKEN, type GroupTransferStore } from './group-transfer-store.ts';
import { groupTransferredEvent } from './groups.events.ts';
import { groupSnapshot } from '../access/group-snapshot.ts';
import type { ProjectStore } from '../projects/projects-store.ts';
import { CONTAINER_REGISTRY_TAGS_ERRORS, groupHasContainerTags } from '../projects/container-registry-paths.ts';

/** GitLab's sentences for a refused group transfer, each answered as 400 `{"message": ...}`. */
export const GROUP_TRANSFER_ERRORS = {
  alreadyRoot: 'Transfer failed: Group is already a root group.',
  sameParent: 'Transfer failed: Group is already associated to the parent group.',
  permissions: "Transfer failed: You don't have enough permissions.",
  pathTaken: PATH_TAKEN,
  intoSubgroup: 'Transfer failed: Cannot transfer group to one of its subgroup.',
  containerTags: `Transfer failed: ${CONTAINER_REGISTRY_TAGS_ERRORS.groupPathChange}`,
};

/** May the viewer create a subgroup in `parent`, given their access to it? Owners always; maintainers where the group lets them. */
export function mayCreateSubgroup(viewer: Viewer, parent: Group, accessLevel: number): boolean {
  if (isAdmin(viewer)) return true;
  const required = parent.subgroupCreationLevel === 'owner' ? ACCESS_LEVEL.OWNER : ACCESS_LEVEL.MAINTAINER;
  return accessLevel >= required;
}

/**
 * Moves a group, with its subgroups and projects, under another parent or to the top level, as
 * GitLab's `POST /groups/:id/transfer`: Owner of the group, allowed to create a subgroup in the
 * new parent (or a group at all, for the top level). Paths below it follow in one transaction;
 * access inherited through the old ancestors ends and through the new ones begins, since access
 * is computed from the ancestry.
 */
export class GroupTransferService {
  readonly #em: EntityManager;
  readonly #transfers: GroupTransferStore;
  readonly #groups: GroupStore;
  readonly #readModel: GroupsReadModel;
  readonly #namespaces: NamespaceStore;
  readonly #members: MembersService;
  readonly #access: AccessPolicy;
  readonly #users: UserStore;
  readonly #projects: ProjectStore;
  readonly #containerRegistry: ContainerRegistryTags;

  constructor(options: {
    em: EntityManager;
    transfers: GroupTransferStore;
    groups: GroupStore;
    /** Transfer locations are read without entities. */
    readModel: GroupsReadModel;
    projects: ProjectStore;
    namespaces: NamespaceStore;
    members: MembersService;
    access: AccessPolicy;
    users: UserStore;
    containerRegistry: ContainerRegistryTags;
  }) {
    this.#em = options.em;
    this.#transfers = options.transfers;
    this.#groups = options.groups;
    this.#readModel = options.readModel;
    this.#namespaces = options.namespaces;
    this.#members = options.members;
    this.#access = options.access;
    this.#users = options.users;
    this.#projects = options.projects;
    this.#containerRegistry = options.containerRegistry;
  }

  /** Refusals come in GitLab's order; a missing or invisible group is 404, too little access on it 403. */
  async transfer(viewer: Viewer, actor: EventActor, input: { id: number | string; group_id?: number | undefined }): Promise<Group> {
    const { group } = await this.#access.groupWith(viewer, input.id, ACCESS_LEVEL.OWNER);
    const target = input.group_id === undefined ? null : await this.#access.group(viewer, input.group_id);
    const parent = target?.group ?? null;
    if (!parent && group.parentId == null) throw new RefusedError(GROUP_TRANSFER_ERRORS.alreadyRoot);
    if (parent && parent.id === group.parentId) throw new RefusedError(GROUP_TRANSFER_ERRORS.sameParent);
    const allowed = target ? mayCreateSubgroup(viewer, target.group, target.accessLevel) : await this.#mayCreateTopLevelGroup(viewer);
    if (!allowed) throw new RefusedError(GROUP_TRANSFER_ERRORS.permissions);
    if (await this.#transfers.pathTakenUnder(parent?.id ?? null, group.path)) throw new RefusedError(GROUP_TRANSFER_ERRORS.pathTaken);
    if (parent?.traversalIds.includes(group.id)) throw new RefusedError(GROUP_TRANSFER_ERRORS.intoSubgroup);
    if (await groupHasContainerTags({ registry: this.#containerRegistry, groups: this.#groups, projects: this.#projects, group })) {
      throw new RefusedError(GROUP_TRANSFER_ERRORS.containerTags);
    }

    return this.#em.transactional(async (em) => {
      const previousFullPath = group.fullPath;
      const previousParentId = group.parentId ?? null;
      await this.#transfers.move(group, parent);
      // A group promoted to the top level keeps an owner: access through the old parent is gone.
      if (!parent && viewer.kind === 'user' && !(await this.#transfers.hasDirectOwner(group.id))) {
        await this.#members.addGroupMember({ groupId: group.id, userId: viewer.userId, accessLevel: ACCESS_LEVEL.OWNER, actor });
      }
      const known = await this.#namespaces.withAncestors([group]);
      recordEvent(em, { ...groupTransferredEvent({ group: groupSnapshot(group, known), previousFullPath, previousParentId }), actor });
      return group;
    });
  }

  /**
   * `GET /groups/:id/transfer_locations`: the groups the viewer owns (directly, by inheritance
   * or through a share) where the group could go, without itself, its descendants and its parent.
   */
  async locations(viewer: Viewer, input: { id: number | string; search?: string | undefined }, window: PageWindow) {
    const { group } = await this.#access.groupWith(viewer, input.id, ACCESS_LEVEL.OWNER);
    const subtree = await this.#groups.subtreeOf(group);
    const skipIds = [...subtree.map((member) => member.id), ...(group.parentId == null ? [] : [group.parentId])];
    return this.#readModel.listPublic({
      viewer,
      filter: { minAccessLevel: ACCESS_LEVEL.OWNER, skipIds, ...(input.search ? { search: input.search } : {}) },
      order: { by: 'path', sort: 'asc' },
      window,
    });
  }

  /** `GET /projects/:id/transfer_locations`: groups the viewer may transfer projects into (Maintainer, projects allowed), but the project's own. */
  async projectLocations(viewer: Viewer, input: { id: number | string; search?: string | undefined }, window: PageWindow) {
    const { namespace } = await this.#access.projectWith(viewer, input.id, ACCESS_LEVEL.OWNER);
    return this.#readModel.listPublic({
      viewer,
      filter: {
        minAccessLevel: ACCESS_LEVEL.MAINTAINER,
        projectCreationAllowed: true,
        ...(namespace.kind === 'group' ? { skipIds: [namespace.id] } : {}),
        ...(input.search ? { search: input.search } : {}),
      },
      order: { by: 'name', sort: 'asc' },
      window,
    });
  }

  async #mayCreateTopLevelGroup(viewer: Viewer): Promise<boolean> {
    if (viewer.kind !== 'user') return false;
    if (viewer.isAdmin) return true;
    const user = await this.#users.findById(viewer.userId);
    return Boolean(user?.canCreateGroup && !user.external);
  }
}
