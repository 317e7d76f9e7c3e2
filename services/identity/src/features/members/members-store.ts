import type { EntityManager } from '@mikro-orm/postgresql';
import { sql, type RawBuilder } from 'kysely';
import { findPage, likePattern, mapPage, readPage, translateDbError, type Page, type PageWindow } from '@platform/db';
import { Member, type SourceType } from './member.entity.ts';

export type NewMember = Pick<Member, 'sourceType' | 'sourceId' | 'userId' | 'accessLevel'> &
  Partial<Pick<Member, 'expiresAt' | 'requestedAt' | 'createdBy'>>;

/** Where a source's memberships can come from, besides its own `members` rows. */
export interface SourceLineage {
  sourceType: SourceType;
  sourceId: number;
  /** Groups whose members inherit access: the group's ancestors, or a project's namespace and its ancestors. */
  ancestorGroupIds: number[];
}

export interface MemberFilter {
  /** Name or username contains this, case-insensitively. */
  query?: string;
  userIds?: number[];
  skipUserIds?: number[];
}

/** A membership as it counts for the source: with inheritance the level may be capped by a share. */
export interface EffectiveMember {
  member: Member;
  accessLevel: number;
}

export interface MemberStore {
  /** The row for a user in a source, membership or access request alike. */
  find(sourceType: SourceType, sourceId: number, userId: number): Promise<Member | null>;
  insert(member: NewMember): Promise<Member>;
  flush(): Promise<void>;
  remove(member: Member): Promise<void>;
  /** Active direct memberships of a source. */
  listDirect(sourceType: SourceType, sourceId: number, filter: MemberFilter, page: PageWindow): Promise<Page<EffectiveMember>>;
  /** Each user's highest membership counting for a source: direct, inherited or through shares. */
  listEffective(lineage: SourceLineage, filter: MemberFilter, page: PageWindow): Promise<Page<EffectiveMember>>;
  /** Pending access requests of a source, oldest first. */
  listRequests(sourceType: SourceType, sourceId: number, page: PageWindow): Promise<Page<Member>>;
  /** Active Owner memberships of these groups, other than `exceptMemberId`. */
  countOwners(groupIds: number[], exceptMemberId: number): Promise<number>;
}

const ACTIVE = sql.raw('m.requested_at is null and (m.expires_at is null or m.expires_at > current_date)');

/** Memberships in PostgreSQL. `em` resolves to the current unit of work. */
export class PgMemberStore implements MemberStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  find(sourceType: SourceType, sourceId: number, userId: number): Promise<Member | null> {
    return this.#em.findOne(Member, { sourceType, sourceId, userId });
  }

  async insert(member: NewMember): Promise<Member> {
    const entity = this.#em.create(Member, member);
    try {
      await this.#em.flush();
    } catch (error) {
      throw translateDbError(error, { conflict: 'Member already exists', notFound: 'User' });
    }
    return entity;
  }

  async flush(): Promise<void> {
    await this.#em.flush();
  }

  async remove(member: Member): Promise<void> {
    this.#em.remove(member);
    await this.#em.flush();
  }

  async listDirect(sourceType: SourceType, sourceId: number, filter: MemberFilter, page: PageWindow) {
    const candidates = sql`
      select m.id, m.user_id, m.access_level from members m
      where m.source_type = ${sourceType} and m.source_id = ${sourceId} and ${ACTIVE}`;
    return this.#page(candidates, filter, page, sql`m.id`);
  }

  async listEffective(lineage: SourceLineage, filter: MemberFilter, page: PageWindow) {
    const ancestors = lineage.ancestorGroupIds;
    const activeLink = sql.raw('(l.expires_at is null or l.expires_at > current_date)');
    // Members of a shared-with group include those inherited from its own ancestors.
    const membersOfGroup = (groupId: RawBuilder<unknown>) => sql`
      m.source_type = 'Group' and ${ACTIVE}
      and exists (select 1 from namespaces s where s.id = ${groupId} and m.source_id = any(s.traversal_ids))`;
    const candidates = sql`
      select distinct on (user_id) id, user_id, access_level from (
        select m.id, m.user_id, m.access_level from members m
        where m.source_type = ${lineage.sourceType} and m.source_id = ${lineage.sourceId} and ${ACTIVE}
        union all
        select m.id, m.user_id, m.access_level from members m
        where m.source_type = 'Group' and m.source_id = any(${ancestors}::integer[]) and ${ACTIVE}
        union all
        select m.id, m.user_id, least(l.group_access, m.access_level)
        from group_group_links l join members m on ${membersOfGroup(sql.ref('l.shared_with_group_id'))}
        where l.shared_group_id = any(${lineage.sourceType === 'Group' ? [...ancestors, lineage.sourceId] : ancestors}::integer[])
          and ${activeLink}
        union all
        select m.id, m.user_id, least(l.group_access, m.access_level)
        from project_group_links l join members m on ${membersOfGroup(sql.ref('l.group_id'))}
        where ${lineage.sourceType === 'Project' ? sql`l.project_id = ${lineage.sourceId}` : sql`false`} and ${activeLink}
      ) levels
      order by user_id, access_level desc, id`;
    return this.#page(candidates, filter, page, sql`m.user_id`);
  }

  async #page(candidates: RawBuilder<unknown>, filter: MemberFilter, page: PageWindow, order: RawBuilder<unknown>) {
    const conditions: RawBuilder<unknown>[] = [sql`true`];
    if (filter.query) {
      const pattern = likePattern(filter.query);
      conditions.push(sql`(u.name ilike ${pattern} or u.username ilike ${pattern})`);
    }
    if (filter.userIds && filter.userIds.length > 0) conditions.push(sql`m.user_id = any(${filter.userIds}::integer[])`);
    if (filter.skipUserIds && filter.skipUserIds.length > 0) conditions.push(sql`m.user_id <> all(${filter.skipUserIds}::integer[])`);
    const where = sql.join(conditions, sql` and `);
    const listed = await readPage<{ id: number; access_level: number }>(this.#em.getKysely(), {
      matching: sql`select 1 from (${candidates}) m join users u on u.id = m.user_id where ${where}`,
      rows: sql`select m.id, m.access_level from (${candidates}) m join users u on u.id = m.user_id where ${where} order by ${order}`,
      window: page,
    });
    const rows = listed.items;
    const members = rows.length === 0 ? [] : await this.#em.find(Member, { id: { $in: rows.map((row) => row.id) } });
    const byId = new Map(members.map((member) => [member.id, member]));
    return mapPage(listed, (items) =>
      items.flatMap((row) => {
        const member = byId.get(row.id);
        return member ? [{ member, accessLevel: Number(row.access_level) }] : [];
      }),
    );
  }

  async listRequests(sourceType: SourceType, sourceId: number, page: PageWindow) {
    return findPage(
      this.#em,
      Member,
      { sourceType, sourceId, requestedAt: { $ne: null } },
      { orderBy: { requestedAt: 'asc', id: 'asc' }, window: page },
    );
  }

  async countOwners(groupIds: number[], exceptMemberId: number): Promise<number> {
    if (groupIds.length === 0) return 0;
    const { rows } = await sql<{ count: string }>`select count(*) as count from members m
      where m.source_type = 'Group' and m.source_id = any(${groupIds}::integer[]) and m.access_level = 50
        and m.id <> ${exceptMemberId} and ${ACTIVE}`.execute(this.#em.getKysely());
    return Number(rows[0]?.count ?? 0);
  }
}
