import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import type { Caller } from '@platform/auth';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '@platform/errors';
import { User } from '../users/user.entity.ts';
import type { Group, Namespace } from '../namespaces/namespace.entity.ts';
import type { NamespaceStore } from '../namespaces/namespaces-store.ts';
import type { GroupStore } from '../groups/groups-store.ts';
import type { Project } from '../projects/project.entity.ts';
import type { ProjectStore } from '../projects/projects-store.ts';
import {
  accessCtes,
  ANONYMOUS,
  groupAccessLevel,
  groupVisibleTo,
  projectAccessLevel,
  projectVisibleTo,
  type Viewer,
} from './access-sql.ts';
import { NO_ACCESS } from './access-levels.ts';

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
  readonly #groups: GroupStore;
  readonly #projects: ProjectStore;
  readonly #namespaces: NamespaceStore;

  constructor(options: { em: EntityManager; groups: GroupStore; projects: ProjectStore; namespaces: NamespaceStore }) {
    this.#em = options.em;
    this.#groups = options.groups;
    this.#projects = options.projects;
    this.#namespaces = options.namespaces;
  }

  /** The viewer behind a verified caller. A blocked or vanished user sees what anonymous callers see. */
  async viewerOf(caller: Caller): Promise<Viewer> {
    if (caller.kind !== 'user') return ANONYMOUS;
    return this.viewerFor(caller.userId);
  }

  /** The viewer for a user id, as gRPC callers name the acting user; 0 is anonymous. */
  async viewerFor(userId: number): Promise<Viewer> {
    if (userId === 0) return ANONYMOUS;
    const user = await this.#em.findOne(User, { id: userId });
    if (!user || user.state !== 'active') return ANONYMOUS;
    return { kind: 'user', userId: user.id, username: user.username, isAdmin: user.isAdmin, external: user.external };
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

  /** A group the viewer may see, with their access level; NotFoundError otherwise. */
  async group(viewer: Viewer, idOrPath: number | string): Promise<AccessibleGroup> {
    const group = await this.#groups.findByIdOrPath(idOrPath);
    if (!group) throw new NotFoundError('Group');
    const { rows } = await sql<{ visible: boolean; access_level: number }>`
      with ${accessCtes(viewer)}
      select ${groupVisibleTo(viewer)} as visible, ${groupAccessLevel()} as access_level
      from namespaces n where n.id = ${group.id}`.execute(this.#em.getKysely());
    if (!rows[0]?.visible) throw new NotFoundError('Group');
    return { group, accessLevel: Number(rows[0].access_level) };
  }

  /** A project the viewer may see, with their access level; NotFoundError otherwise. */
  async project(viewer: Viewer, idOrPath: number | string): Promise<AccessibleProject> {
    const project = await this.#projects.findByIdOrPath(idOrPath);
    if (!project) throw new NotFoundError('Project');
    const { rows } = await sql<{ visible: boolean; access_level: number }>`
      with ${accessCtes(viewer)}
      select ${projectVisibleTo(viewer)} as visible, ${projectAccessLevel()} as access_level
      from projects p where p.id = ${project.id}`.execute(this.#em.getKysely());
    if (!rows[0]?.visible) throw new NotFoundError('Project');
    const namespace = await this.#namespaces.findById(project.namespaceId);
    if (!namespace) throw new NotFoundError('Project');
    return { project, namespace, accessLevel: Number(rows[0].access_level) };
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
    const levels = new Map<number, number>(groupIds.map((id) => [id, NO_ACCESS]));
    if (groupIds.length === 0 || viewer.kind === 'anonymous') return levels;
    const { rows } = await sql<{ id: number; access_level: number }>`
      with ${accessCtes(viewer)} select id, access_level from group_access where id = any(${groupIds}::integer[])`.execute(
      this.#em.getKysely(),
    );
    for (const row of rows) levels.set(row.id, Number(row.access_level));
    return levels;
  }

  /** The viewer's effective access to each project, 0 where none. */
  async projectAccessLevels(viewer: Viewer, projectIds: number[]): Promise<Map<number, number>> {
    const levels = new Map<number, number>(projectIds.map((id) => [id, NO_ACCESS]));
    if (projectIds.length === 0 || viewer.kind === 'anonymous') return levels;
    const { rows } = await sql<{ id: number; access_level: number }>`
      with ${accessCtes(viewer)} select id, access_level from project_access where id = any(${projectIds}::integer[])`.execute(
      this.#em.getKysely(),
    );
    for (const row of rows) levels.set(row.id, Number(row.access_level));
    return levels;
  }

  /** Of these groups, the ids the viewer may see. */
  async visibleGroupIds(viewer: Viewer, groupIds: number[]): Promise<Set<number>> {
    if (groupIds.length === 0) return new Set();
    const { rows } = await sql<{ id: number }>`
      with ${accessCtes(viewer)}
      select n.id from namespaces n where n.id = any(${groupIds}::integer[]) and ${groupVisibleTo(viewer)}`.execute(this.#em.getKysely());
    return new Set(rows.map((row) => row.id));
  }
}

/** Administrators pass every check; others need `minimum`, and anonymous callers need to sign in. */
export function requireLevel(viewer: Viewer, level: number, minimum: number): void {
  if (isAdmin(viewer) || level >= minimum) return;
  if (viewer.kind === 'anonymous') throw new UnauthorizedError();
  throw new ForbiddenError();
}
