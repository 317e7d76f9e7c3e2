import type { EntityManager } from '@mikro-orm/postgresql';
import type { Page } from '@platform/db';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '@platform/errors';
import type { EventActor } from '@platform/events';
import { recordEvent } from '@platform/events/database';
import type { PageWindow } from '@platform/db';
import { ACCESS_LEVEL } from '@platform/identity-client';
import type { User } from '../users/user.entity.ts';
import type { UserStore } from '../users/users-store.ts';
import type { Viewer } from '../access/access-sql.ts';
import { isAdmin, requireLevel } from '../access/access-policy.ts';
import type { Member, SourceType } from '../members/member.entity.ts';
import type { MemberStore } from '../members/members-store.ts';
import { memberManagerLevel, type MembersService } from '../members/members-service.ts';
import {
  accessRequestApprovedEvent,
  accessRequestDeniedEvent,
  accessRequestedEvent,
  memberAddedEvent,
  memberSnapshot,
} from '../members/members.events.ts';

export interface AccessRequestWithUser {
  request: Member;
  user: User;
}

/**
 * Access requests to groups and projects: a member row with `requestedAt` set until it is
 * approved into a membership or denied (deleted), as GitLab models them.
 */
export class AccessRequestsService {
  readonly #em: EntityManager;
  readonly #members: MembersService;
  readonly #memberStore: MemberStore;
  readonly #users: UserStore;

  constructor(options: { em: EntityManager; members: MembersService; memberStore: MemberStore; users: UserStore }) {
    this.#em = options.em;
    this.#members = options.members;
    this.#memberStore = options.memberStore;
    this.#users = options.users;
  }

  /** Pending requests; only those who manage members see them. */
  async list(viewer: Viewer, type: SourceType, idOrPath: number | string, page: PageWindow): Promise<Page<AccessRequestWithUser>> {
    const { source, accessLevel } = await this.#members.source(viewer, type, idOrPath);
    requireLevel(viewer, accessLevel, memberManagerLevel(type));
    const { items, total, hasNext } = await this.#memberStore.listRequests(source.type, source.id, page);
    const users = new Map((await this.#users.findByIds(items.map((request) => request.userId))).map((user) => [user.id, user]));
    return {
      items: items.flatMap((request) => {
        const user = users.get(request.userId);
        return user ? [{ request, user }] : [];
      }),
      total,
      hasNext,
    };
  }

  /** Asks for access; refused to members (inherited ones too) and to those who already asked. */
  async request(viewer: Viewer, actor: EventActor, type: SourceType, idOrPath: number | string): Promise<AccessRequestWithUser> {
    if (viewer.kind !== 'user') throw new UnauthorizedError();
    const { source, accessLevel } = await this.#members.source(viewer, type, idOrPath);
    const enabled = source.type === 'Group' ? source.group.requestAccessEnabled : source.project.requestAccessEnabled;
    if (!enabled) throw new ForbiddenError('Access requests are disabled');
    if (accessLevel > 0) throw new ForbiddenError('Already a member');
    if (await this.#memberStore.find(source.type, source.id, viewer.userId)) throw new ForbiddenError('Access already requested');
    const user = await this.#users.findById(viewer.userId);
    if (!user) throw new UnauthorizedError();
    const request = await this.#em.transactional(async (em) => {
      const created = await this.#memberStore.insert({
        sourceType: source.type,
        sourceId: source.id,
        userId: user.id,
        accessLevel: ACCESS_LEVEL.DEVELOPER,
        requestedAt: new Date(),
        createdBy: user.id,
      });
      recordEvent(em, { ...accessRequestedEvent(memberSnapshot(created, user, source)), actor });
      return created;
    });
    return { request, user };
  }

  /** Turns a request into a membership at `accessLevel` (Developer unless given). */
  async approve(options: {
    viewer: Viewer;
    actor: EventActor;
    type: SourceType;
    idOrPath: number | string;
    userId: number;
    accessLevel: number;
  }): Promise<AccessRequestWithUser> {
    const { source, accessLevel } = await this.#members.source(options.viewer, options.type, options.idOrPath);
    requireLevel(options.viewer, accessLevel, memberManagerLevel(options.type));
    if (!isAdmin(options.viewer) && options.accessLevel > accessLevel) throw new ForbiddenError();
    const { request, user } = await this.#pending(source.type, source.id, options.userId);
    await this.#em.transactional(async (em) => {
      request.requestedAt = null;
      request.accessLevel = options.accessLevel;
      request.createdBy = options.actor.id;
      await this.#memberStore.flush();
      const snapshot = memberSnapshot(request, user, source);
      recordEvent(em, { ...accessRequestApprovedEvent(snapshot), actor: options.actor });
      recordEvent(em, { ...memberAddedEvent(snapshot), actor: options.actor });
    });
    return { request, user };
  }

  /** Denies a request; requesters may withdraw their own. */
  async deny(options: { viewer: Viewer; actor: EventActor; type: SourceType; idOrPath: number | string; userId: number }): Promise<void> {
    const { source, accessLevel } = await this.#members.source(options.viewer, options.type, options.idOrPath);
    const withdrawn = options.viewer.kind === 'user' && options.viewer.userId === options.userId;
    if (!withdrawn) requireLevel(options.viewer, accessLevel, memberManagerLevel(options.type));
    const { request, user } = await this.#pending(source.type, source.id, options.userId);
    await this.#em.transactional(async (em) => {
      const snapshot = memberSnapshot(request, user, source);
      await this.#memberStore.remove(request);
      recordEvent(em, { ...accessRequestDeniedEvent(snapshot, withdrawn), actor: options.actor });
    });
  }

  async #pending(sourceType: SourceType, sourceId: number, userId: number): Promise<AccessRequestWithUser> {
    const request = await this.#memberStore.find(sourceType, sourceId, userId);
    const user = request?.requestedAt ? await this.#users.findById(userId) : null;
    if (!request || !user) throw new NotFoundError('Access Request');
    return { request, user };
  }
}
