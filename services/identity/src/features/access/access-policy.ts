import type { EntityManager } from '@mikro-orm/postgresql';
import { sql, type RawBuilder } from 'kysely';
import type { Caller } from '@platform/auth';
import { FieldValidationError, ForbiddenError, NotFoundError, UnauthorizedError } from '@platform/errors';
import { ACCESS_LEVEL } from '@platform/identity-client';
import type { EntityDictionary } from '@mikro-orm/core';
import { Namespace, type Group } from './namespace.entity.ts';
import { MAX_ID } from './sql-helpers.ts';
import type { NamespaceStore } from './namespaces-store.ts';
import { Project } from './project.entity.ts';
import { ANONYMOUS, groupAccessLevel, groupVisibleTo, projectAccessLevel, projectVisibleTo, type Viewer } from './access-sql.ts';

export interface AccessibleGroup {
  group: Group;
  /** The viewer's effective access level; 0 for none. */
  accessLevel: number;
}

export interface AccessibleProject {
  project: Project;
  namespace: Namespace;
  /** The viewer's effective access level; 0 for none. */
  accessLevel: number;
  /** The viewer's own membership of the project (pending requests aside), and their access to its group: `permissions`. */
  directAccessLevel: number | null;
  namespaceAccessLevel: number | null;
}

export function isAdmin(viewer: Viewer): boolean {
  return viewer.kind === 'user' && viewer.isAdmin;
}

/**
 * Answers "may this caller see / act on this group or project?". An invisible resource is
 * indistinguishable from a missing one (404); a visible one with too little access is 403,
 * or 401 for an anonymous caller.
 */
export class AccessPolicy {
  readonly #em: EntityManager;
  readonly #namespaces: NamespaceStore;

  constructor(options: { em: EntityManager; namespaces: NamespaceStore }) {
    this.#em = options.em;
    this.#namespaces = options.namespaces;
  }

  /** The viewer behind a verified caller. A blocked or vanished user sees what anonymous callers see. */
  async viewerOf(caller: Caller): Promise<Viewer> {
    if (caller.kind !== 'user') return ANONYMOUS;
    return this.viewerFor(caller.userId);
  }

  /** The viewer for a user id, as gRPC callers name the acting user; 0 is anonymous. */
  async viewerFor(userId: number): Promise<Viewer> {
    if (userId === 0 || userId > MAX_ID) return ANONYMOUS;
    // Only the columns access depends on, not the whole user.
    const { rows } = await sql<{ username: string; is_admin: boolean; external: boolean }>`
      select username, is_admin, external from users where id = ${userId} and state = 'active'`.execute(this.#em.getKysely());
    const user = rows[0];
    if (!user) return ANONYMOUS;
    return { kind: 'user', userId, username: user.username, isAdmin: user.is_admin, external: user.external };
  }

  /**
   * Whether the viewer may see a namespace: a group as its visibility says, a personal namespace
   * only by its owner and administrators, as in GitLab. NotFoundError otherwise.
   */
  async requireVisibleNamespace(viewer: Viewer, namespace: Namespace): Promise<void> {
    if (namespace.kind === 'group') {
      await this.group(viewer, namespace.id).catch(() => {
        throw new NotFoundError('Namespace');
      });
      return;
    }
    if (isAdmin(viewer) || (viewer.kind === 'user' && viewer.userId === namespace.ownerId)) return;
    throw new NotFoundError('Namespace');
  }

  /**
   * A group the viewer may see, with their access level; NotFoundError otherwise. One statement
   * finds the group and decides visibility and access.
   */
  async group(viewer: Viewer, idOrPath: number | string): Promise<AccessibleGroup> {
    const match =
      typeof idOrPath === 'number' ? (idOrPath > MAX_ID ? null : sql`n.id = ${idOrPath}`) : sql`lower(n.full_path) = lower(${idOrPath})`;
    if (!match) throw new NotFoundError('Group');
    const { rows } = await sql<EntityDictionary<Namespace> & { visible__: boolean; access_level__: number }>`
      select n.*, ${groupVisibleTo(viewer)} as visible__, ${groupAccessLevel(viewer)} as access_level__
      from namespaces n where n.kind = 'group' and ${match}`.execute(this.#em.getKysely());
    const row = rows[0];
    if (!row?.visible__) throw new NotFoundError('Group');
    const { visible__: _visible, access_level__: accessLevel, ...columns } = row;
    return { group: this.#em.map(Namespace, columns) as Group, accessLevel: Number(accessLevel) };
  }

  /**
   * A project the viewer may see, with their access levels; NotFoundError otherwise. One
   * statement finds the project and decides visibility and access; its namespace is a key lookup.
   */
  async project(viewer: Viewer, idOrPath: number | string): Promise<AccessibleProject> {
    const match = projectMatch(idOrPath);
    if (!match) throw new NotFoundError('Project');
    const userId = viewer.kind === 'user' ? viewer.userId : 0;
    const { rows } = await sql<
      EntityDictionary<Project> & {
        visible__: boolean;
        access_level__: number;
        direct_level__: number | null;
        namespace_level__: number | null;
      }
    >`
      select p.*, ${projectVisibleTo(viewer)} as visible__, ${projectAccessLevel(viewer)} as access_level__,
        (select m.access_level from members m
         where m.source_type = 'Project' and m.source_id = p.id and m.user_id = ${userId} and m.requested_at is null) as direct_level__,
        (select ${groupAccessLevel(viewer, 'pn')} from namespaces pn where pn.id = p.namespace_id) as namespace_level__
      from projects p where ${match}`.execute(this.#em.getKysely());
    const row = rows[0];
    if (!row?.visible__) throw new NotFoundError('Project');
    const { visible__: _visible, access_level__: accessLevel, direct_level__: direct, namespace_level__: inherited, ...columns } = row;
    const project = this.#em.map(Project, columns);
    const namespace = await this.#namespaces.findById(project.namespaceId);
    if (!namespace) throw new NotFoundError('Project');
    return {
      project,
      namespace,
      accessLevel: Number(accessLevel),
      directAccessLevel: direct === null ? null : Number(direct),
      namespaceAccessLevel: namespace.kind === 'group' && Number(inherited) > 0 ? Number(inherited) : null,
    };
  }

  /** A visible group on which the viewer has at least `minimum`. */
  async groupWith(viewer: Viewer, idOrPath: number | string, minimum: number): Promise<AccessibleGroup> {
    const accessible = await this.group(viewer, idOrPath);
    requireLevel(viewer, accessible.accessLevel, minimum);
    return accessible;
  }

  /** A visible project on which the viewer has at least `minimum`. */
  async projectWith(viewer: Viewer, idOrPath: number | string, minimum: number): Promise<AccessibleProject> {
    const accessible = await this.project(viewer, idOrPath);
    requireLevel(viewer, accessible.accessLevel, minimum);
    return accessible;
  }

  /** The viewer's effective access to each group, 0 where none. */
  async groupAccessLevels(viewer: Viewer, groupIds: number[]): Promise<Map<number, number>> {
    const levels = new Map<number, number>(groupIds.map((id) => [id, ACCESS_LEVEL.NO_ACCESS]));
    if (groupIds.length === 0 || viewer.kind === 'anonymous') return levels;
    const { rows } = await sql<{ id: number; access_level: number }>`
      select n.id, ${groupAccessLevel(viewer)} as access_level from namespaces n where n.id = any(${groupIds}::integer[])`.execute(
      this.#em.getKysely(),
    );
    for (const row of rows) levels.set(row.id, Number(row.access_level));
    return levels;
  }

  /** The viewer's effective access to each project, 0 where none. */
  async projectAccessLevels(viewer: Viewer, projectIds: number[]): Promise<Map<number, number>> {
    const levels = new Map<number, number>(projectIds.map((id) => [id, ACCESS_LEVEL.NO_ACCESS]));
    if (projectIds.length === 0 || viewer.kind === 'anonymous') return levels;
    const { rows } = await sql<{ id: number; access_level: number }>`
      select p.id, ${projectAccessLevel(viewer)} as access_level from projects p where p.id = any(${projectIds}::integer[])`.execute(
      this.#em.getKysely(),
    );
    for (const row of rows) levels.set(row.id, Number(row.access_level));
    return levels;
  }
}

/** A project as a request names it: its id, or its namespace's full path and its own path (case-insensitive). */
export type ProjectKey = { id: number } | { namespacePath: string; path: string };

/** The key a project id or `namespace/full/path/project` names; null names nothing. */
export function projectKey(idOrPath: number | string): ProjectKey | null {
  if (typeof idOrPath === 'number') return idOrPath > MAX_ID ? null : { id: idOrPath };
  const slash = idOrPath.lastIndexOf('/');
  if (slash <= 0) return null;
  return { namespacePath: idOrPath.slice(0, slash), path: idOrPath.slice(slash + 1) };
}

/** The project (`projects p`) a key names, by its values or a compiled statement's placeholders for them. */
export function projectKeyMatch(
  key: { id: number | RawBuilder<number> } | { namespacePath: string | RawBuilder<string>; path: string | RawBuilder<string> },
): RawBuilder<unknown> {
  if ('id' in key) return sql`p.id = ${key.id}`;
  return sql`lower(p.path) = lower(${key.path})
    and p.namespace_id = (select n.id from namespaces n where lower(n.full_path) = lower(${key.namespacePath}))`;
}

/** Where a project id or `namespace/full/path/project` (case-insensitive) points; null names nothing. */
export function projectMatch(idOrPath: number | string): RawBuilder<unknown> | null {
  const key = projectKey(idOrPath);
  return key && projectKeyMatch(key);
}

/** Administrators pass every check; others need `minimum`, and anonymous callers need to sign in. */
export function requireLevel(viewer: Viewer, level: number, minimum: number): void {
  if (isAdmin(viewer) || level >= minimum) return;
  if (viewer.kind === 'anonymous') throw new UnauthorizedError();
  throw new ForbiddenError();
}

/** GitLab's checks on sharing a group or project with a group: no more access than the sharer has (administrators excepted), no expiry in the past. */
export function checkShareGrant(
  viewer: Viewer,
  accessLevel: number,
  share: { group_access: number; expires_at?: string | null | undefined },
): void {
  if (!isAdmin(viewer) && share.group_access > accessLevel) throw new ForbiddenError();
  if (share.expires_at && share.expires_at <= new Date().toISOString().slice(0, 10)) {
    throw new FieldValidationError({ expires_at: ['cannot be a date in the past'] });
  }
}
