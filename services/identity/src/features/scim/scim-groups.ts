import type { AuthenticatedCaller } from '@platform/auth';
import { ConflictError, NotFoundError } from '@platform/errors';
import { ACCESS_LEVEL } from '@platform/identity-client';
import type { GroupStore } from '../groups/groups-store.ts';
import type { AccessPolicy } from '../access/access-policy.ts';
import type { MemberStore } from '../members/members-store.ts';
import type { MembersService } from '../members/members-service.ts';
import type { Group } from '../access/namespace.entity.ts';
import type { GroupOwnership, SingleSignOnGroupRef } from '../saml-providers/single-sign-on-group.ts';
import type { ProvisioningGroups } from './scim-service.ts';

function refOf(group: Group): SingleSignOnGroupRef {
  return { id: group.id, fullPath: group.fullPath, parentId: group.parentId ?? null };
}

/**
 * Groups and their memberships as single sign-on and SCIM use them, over the groups and members
 * features. Membership changes made by provisioning have no actor: the identity provider makes them.
 */
export class SingleSignOnGroups implements GroupOwnership, ProvisioningGroups {
  readonly #groups: GroupStore;
  readonly #access: AccessPolicy;
  readonly #members: MembersService;
  readonly #memberStore: MemberStore;

  constructor(options: { groups: GroupStore; access: AccessPolicy; members: MembersService; memberStore: MemberStore }) {
    this.#groups = options.groups;
    this.#access = options.access;
    this.#members = options.members;
    this.#memberStore = options.memberStore;
  }

  async requireOwnedGroup(caller: AuthenticatedCaller, idOrPath: number | string): Promise<SingleSignOnGroupRef> {
    const viewer = await this.#access.viewerOf(caller);
    const { group } = await this.#access.groupWith(viewer, idOrPath, ACCESS_LEVEL.OWNER);
    return refOf(group);
  }

  /** Any group, visible or not: the SCIM token, not a user, authorises SCIM requests. */
  async findByFullPath(fullPath: string): Promise<SingleSignOnGroupRef | null> {
    const group = await this.#groups.findByIdOrPath(fullPath);
    return group ? refOf(group) : null;
  }

  async findById(id: number): Promise<SingleSignOnGroupRef | null> {
    const group = await this.#groups.findById(id);
    return group ? refOf(group) : null;
  }

  /** A member keeps the role they have; a pending access request becomes the membership. */
  async addMember(options: { group: SingleSignOnGroupRef; userId: number; accessLevel: number }): Promise<void> {
    const existing = await this.#memberStore.find('Group', options.group.id, options.userId);
    if (existing && !existing.requestedAt) return;
    await this.#members.addGroupMember({
      groupId: options.group.id,
      userId: options.userId,
      accessLevel: options.accessLevel,
      actor: null,
    });
  }

  /** As in GitLab, deprovisioning never leaves a group without an owner. */
  async removeMember(options: { group: SingleSignOnGroupRef; userId: number }): Promise<void> {
    const member = await this.#memberStore.find('Group', options.group.id, options.userId);
    if (!member || member.requestedAt) return;
    if (member.accessLevel === ACCESS_LEVEL.OWNER) {
      const group = await this.#groups.findById(options.group.id);
      if (!group) throw new NotFoundError('Group');
      if ((await this.#memberStore.countOwners(group.traversalIds, member.id)) === 0) {
        throw new ConflictError(`Cannot deprovision the last owner of group ${group.fullPath}`);
      }
    }
    await this.#members.removeGroupMember({ groupId: options.group.id, userId: options.userId, actor: null });
  }
}
