import type { EntityManager } from '@mikro-orm/postgresql';
import type { Page } from '@platform/db';
import { ConflictError, FieldValidationError, ForbiddenError, InputError, NotFoundError } from '@platform/errors';
import type { EventActor } from '@platform/events';
import { recordEvent } from '@platform/events/database';
import type { Group, Namespace } from '../access/namespace.entity.ts';
import type { GroupLookup } from '../access/group-lookup.ts';
import type { Project } from '../access/project.entity.ts';
import type { User } from '../users/user.entity.ts';
import type { UserStore } from '../users/users-store.ts';
import type { PageWindow } from '@platform/db';
import { ACCESS_LEVEL } from '@platform/identity-client';
import type { Viewer } from '../access/access-sql.ts';
import { isAdmin, requireLevel, type AccessPolicy } from '../access/access-policy.ts';
import { GROUP_ACCESS_LEVELS, PROJECT_ACCESS_LEVELS } from '../access/access-levels.ts';
import type { Member, SourceType } from './member.entity.ts';
import type { EffectiveMember, MemberFilter, MemberStore, SourceLineage } from './members-store.ts';
import { memberAddedEvent, memberRemovedEvent, memberSnapshot, memberUpdatedEvent } from './members.events.ts';

/** A group or project that has members. */
export type MembershipSource =
  | { type: 'Group'; id: number; fullPath: string; group: Group; ancestorGroupIds: number[] }
  | { type: 'Project'; id: number; fullPath: string; project: Project; namespace: Namespace; ancestorGroupIds: number[] };

export function groupSource(group: Group): MembershipSource {
  return {
    type: 'Group',
    id: group.id,
    fullPath: group.fullPath,
    group,
    ancestorGroupIds: group.traversalIds.filter((id) => id !== group.id),
  };
}

export function projectSource(project: Project, namespace: Namespace): MembershipSource {
  return {
    type: 'Project',
    id: project.id,
    fullPath: `${namespace.fullPath}/${project.path}`,
    project,
    namespace,
    ancestorGroupIds: namespace.kind === 'group' ? namespace.traversalIds : [],
  };
}

function lineageOf(source: MembershipSource): SourceLineage {
  return { sourceType: source.type, sourceId: source.id, ancestorGroupIds: source.ancestorGroupIds };
}

/** Managing members takes Owner in a group and Maintainer in a project, as in GitLab. */
export function memberManagerLevel(type: SourceType): number {
  return type === 'Group' ? ACCESS_LEVEL.OWNER : ACCESS_LEVEL.MAINTAINER;
}

/** The levels a member of this kind of source may hold: Owner is for groups. */
export function validAccessLevels(type: SourceType): readonly number[] {
  return type === 'Group' ? GROUP_ACCESS_LEVELS : PROJECT_ACCESS_LEVELS;
}

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

function validateExpiry(expiresAt: string | null | undefined): void {
  if (expiresAt && expiresAt <= today()) throw new FieldValidationError({ expires_at: ['cannot be a date in the past'] });
}

export interface MemberWithUser extends EffectiveMember {
  user: User;
  createdBy: User | null;
}

export interface NewMembershipInput {
  userId: number;
  accessLevel: number;
  expiresAt?: string | null;
}

/**
 * Memberships of groups and projects. `addGroupMember` and `removeGroupMember` are for other
 * features that decide on their own authority (SCIM provisioning); the rest checks the caller.
 */
export class MembersService {
  readonly #em: EntityManager;
  readonly #members: MemberStore;
  readonly #users: UserStore;
  readonly #groups: GroupLookup;
  readonly #access: AccessPolicy;

  constructor(options: { em: EntityManager; members: MemberStore; users: UserStore; groups: GroupLookup; access: AccessPolicy }) {
    this.#em = options.em;
    this.#members = options.members;
    this.#users = options.users;
    this.#groups = options.groups;
    this.#access = options.access;
  }

  /**
   * Makes a user a member of a group without checking anyone's permission, and records
   * `identity.member.added`. A pending access request becomes the membership; an existing
   * membership is a ConflictError. Joins the caller's transaction when there is one.
   */
  async addGroupMember(options: NewMembershipInput & { groupId: number; actor: EventActor | null }): Promise<Member> {
    const group = await this.#groups.findById(options.groupId);
    if (!group) throw new NotFoundError('Group');
    if (!GROUP_ACCESS_LEVELS.includes(options.accessLevel)) throw new InputError('access_level does not have a valid value');
    return this.#em.transactional(() => this.#add(groupSource(group), options, options.actor));
  }

  /**
   * Adds a membership on the platform's own authority, as for a project's creator; see
   * `addGroupMember`. Owner is allowed on projects here: a personal project's owner holds it.
   */
  async addMember(options: NewMembershipInput & { source: MembershipSource; actor: EventActor | null }): Promise<Member> {
    if (!GROUP_ACCESS_LEVELS.includes(options.accessLevel)) throw new InputError('access_level does not have a valid value');
    return this.#em.transactional(() => this.#add(options.source, options, options.actor));
  }

  /**
   * Ends a user's membership of a group without checking anyone's permission, and records
   * `identity.member.removed`. Resolves false when the user was not a member.
   */
  async removeGroupMember(options: { groupId: number; userId: number; actor: EventActor | null }): Promise<boolean> {
    const group = await this.#groups.findById(options.groupId);
    if (!group) throw new NotFoundError('Group');
    return this.#em.transactional(async () => {
      const member = await this.#members.find('Group', group.id, options.userId);
      if (!member || member.requestedAt) return false;
      await this.#remove(groupSource(group), member, options.actor);
      return true;
    });
  }

  /**
   * Ends a user's membership of a group or project on the platform's own authority (a revoked
   * access token's bot leaves); see `removeGroupMember`.
   */
  async removeMember(options: { source: MembershipSource; userId: number; actor: EventActor | null }): Promise<boolean> {
    return this.#em.transactional(async () => {
      const member = await this.#members.find(options.source.type, options.source.id, options.userId);
      if (!member || member.requestedAt) return false;
      await this.#remove(options.source, member, options.actor);
      return true;
    });
  }

  /** The group or project behind `:id`, if the viewer may see it, with their access level. */
  async source(viewer: Viewer, type: SourceType, idOrPath: number | string): Promise<{ source: MembershipSource; accessLevel: number }> {
    if (type === 'Group') {
      const { group, accessLevel } = await this.#access.group(viewer, idOrPath);
      return { source: groupSource(group), accessLevel };
    }
    const { project, namespace, accessLevel } = await this.#access.project(viewer, idOrPath);
    return { source: projectSource(project, namespace), accessLevel };
  }

  /** Direct members, or with `inherited` everyone whose access counts here, at their highest level. */
  async list(options: {
    viewer: Viewer;
    type: SourceType;
    idOrPath: number | string;
    inherited: boolean;
    filter: MemberFilter;
    page: PageWindow;
  }): Promise<Page<MemberWithUser>> {
    const { source } = await this.source(options.viewer, options.type, options.idOrPath);
    const result = options.inherited
      ? await this.#members.listEffective(lineageOf(source), options.filter, options.page)
      : await this.#members.listDirect(source.type, source.id, options.filter, options.page);
    return { items: await this.#withUsers(result.items), total: result.total, hasNext: result.hasNext };
  }

  async get(options: {
    viewer: Viewer;
    type: SourceType;
    idOrPath: number | string;
    userId: number;
    inherited: boolean;
  }): Promise<MemberWithUser> {
    const { items } = await this.list({ ...options, filter: { userIds: [options.userId] }, page: { offset: 0, limit: 1 } });
    const found = items[0];
    if (!found) throw new NotFoundError('Member');
    return found;
  }

  async add(options: {
    viewer: Viewer;
    actor: EventActor;
    type: SourceType;
    idOrPath: number | string;
    user: { id: number } | { username: string };
    accessLevel: number;
    expiresAt?: string | null;
  }): Promise<MemberWithUser> {
    const { source, accessLevel } = await this.source(options.viewer, options.type, options.idOrPath);
    requireLevel(options.viewer, accessLevel, memberManagerLevel(source.type));
    this.#checkGrantable(options.viewer, accessLevel, options.accessLevel);
    validateExpiry(options.expiresAt);
    const user =
      'id' in options.user ? await this.#users.findById(options.user.id) : await this.#users.findByIdOrUsername(options.user.username);
    if (!user) throw new NotFoundError('User');
    const member = await this.#em.transactional(() =>
      this.#add(source, { userId: user.id, accessLevel: options.accessLevel, expiresAt: options.expiresAt ?? null }, options.actor),
    );
    const [withUser] = await this.#withUsers([{ member, accessLevel: member.accessLevel }]);
    return withUser as MemberWithUser;
  }

  async update(options: {
    viewer: Viewer;
    actor: EventActor;
    type: SourceType;
    idOrPath: number | string;
    userId: number;
    accessLevel: number;
    expiresAt?: string | null;
  }): Promise<MemberWithUser> {
    const { source, accessLevel } = await this.source(options.viewer, options.type, options.idOrPath);
    requireLevel(options.viewer, accessLevel, memberManagerLevel(source.type));
    const member = await this.#members.find(source.type, source.id, options.userId);
    if (!member || member.requestedAt) throw new NotFoundError('Member');
    this.#checkGrantable(options.viewer, accessLevel, member.accessLevel);
    this.#checkGrantable(options.viewer, accessLevel, options.accessLevel);
    validateExpiry(options.expiresAt);
    if (member.accessLevel === ACCESS_LEVEL.OWNER && options.accessLevel < ACCESS_LEVEL.OWNER) await this.#keepAnOwner(source, member);
    const updated = await this.#em.transactional(async (em) => {
      const previous = { accessLevel: member.accessLevel, expiresAt: member.expiresAt ?? null };
      member.accessLevel = options.accessLevel;
      if (options.expiresAt !== undefined) member.expiresAt = options.expiresAt;
      await this.#members.flush();
      const user = await this.#userOf(member.userId);
      recordEvent(em, { ...memberUpdatedEvent(memberSnapshot(member, user, source), previous), actor: options.actor });
      return member;
    });
    const [withUser] = await this.#withUsers([{ member: updated, accessLevel: updated.accessLevel }]);
    return withUser as MemberWithUser;
  }

  /** Removes a member; members may always leave, except the last owner. */
  async remove(options: { viewer: Viewer; actor: EventActor; type: SourceType; idOrPath: number | string; userId: number }): Promise<void> {
    const { source, accessLevel } = await this.source(options.viewer, options.type, options.idOrPath);
    const leaving = options.viewer.kind === 'user' && options.viewer.userId === options.userId;
    if (!leaving) requireLevel(options.viewer, accessLevel, memberManagerLevel(source.type));
    const member = await this.#members.find(source.type, source.id, options.userId);
    if (!member || member.requestedAt) throw new NotFoundError('Member');
    if (!leaving) this.#checkGrantable(options.viewer, accessLevel, member.accessLevel);
    if (member.accessLevel === ACCESS_LEVEL.OWNER) await this.#keepAnOwner(source, member);
    await this.#em.transactional(() => this.#remove(source, member, options.actor));
  }

  async #add(source: MembershipSource, input: NewMembershipInput, actor: EventActor | null): Promise<Member> {
    const user = await this.#userOf(input.userId);
    const existing = await this.#members.find(source.type, source.id, input.userId);
    if (existing && !existing.requestedAt) throw new ConflictError('Member already exists');
    let member: Member;
    if (existing) {
      existing.requestedAt = null;
      existing.accessLevel = input.accessLevel;
      existing.expiresAt = input.expiresAt ?? null;
      existing.createdBy = actor?.id ?? null;
      await this.#members.flush();
      member = existing;
    } else {
      member = await this.#members.insert({
        sourceType: source.type,
        sourceId: source.id,
        userId: input.userId,
        accessLevel: input.accessLevel,
        expiresAt: input.expiresAt ?? null,
        createdBy: actor?.id ?? null,
      });
    }
    recordEvent(this.#em, { ...memberAddedEvent(memberSnapshot(member, user, source)), actor });
    return member;
  }

  async #remove(source: MembershipSource, member: Member, actor: EventActor | null): Promise<void> {
    const user = await this.#userOf(member.userId);
    const snapshot = memberSnapshot(member, user, source);
    await this.#members.remove(member);
    recordEvent(this.#em, { ...memberRemovedEvent(snapshot), actor });
  }

  async #userOf(userId: number): Promise<User> {
    const user = await this.#users.findById(userId);
    if (!user) throw new NotFoundError('User');
    return user;
  }

  /** Nobody grants, or touches a member holding, more access than they have themselves. */
  #checkGrantable(viewer: Viewer, ownLevel: number, level: number): void {
    if (!isAdmin(viewer) && level > ownLevel) throw new ForbiddenError();
  }

  /**
   * A group keeps at least one owner, counting owners inherited from its ancestors; the owner of
   * a personal project keeps owning it.
   */
  async #keepAnOwner(source: MembershipSource, member: Member): Promise<void> {
    if (source.type === 'Project') {
      if (source.namespace.kind === 'user' && source.namespace.ownerId === member.userId) {
        throw new ForbiddenError('The owner of a personal project cannot be removed or demoted');
      }
      return;
    }
    const others = await this.#members.countOwners(source.group.traversalIds, member.id);
    if (others === 0) throw new ForbiddenError('A group must keep at least one owner');
  }

  async #withUsers(members: EffectiveMember[]): Promise<MemberWithUser[]> {
    const userIds = members.flatMap(({ member }) => (member.createdBy ? [member.userId, member.createdBy] : [member.userId]));
    const users = new Map((await this.#users.findByIds([...new Set(userIds)])).map((user) => [user.id, user]));
    return members.flatMap((entry) => {
      const user = users.get(entry.member.userId);
      if (!user) return [];
      return [{ ...entry, user, createdBy: entry.member.createdBy ? (users.get(entry.member.createdBy) ?? null) : null }];
    });
  }
}
