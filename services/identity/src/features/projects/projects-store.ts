import type { EntityManager } from '@mikro-orm/postgresql';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { sql } from 'kysely';
import { FieldValidationError } from '@platform/errors';
import { translateDbError } from '@platform/db';
import type { NamespaceStore } from '../access/namespaces-store.ts';
import { MAX_ID } from '../access/sql-helpers.ts';
import { Project, ProjectGroupLink } from '../access/project.entity.ts';
import { ProjectStar } from './project-star.entity.ts';

export type NewProject = Pick<Project, 'namespaceId' | 'name' | 'path'> & Partial<Omit<Project, 'id' | 'createdAt' | 'updatedAt'>>;

export interface ProjectStore {
  findById(id: number): Promise<Project | null>;
  findByIds(ids: number[]): Promise<Project[]>;
  /** An integer id, or `namespace/full/path/project` compared case-insensitively. */
  findByIdOrPath(idOrPath: number | string): Promise<Project | null>;
  /** Inserts now, so that a taken name or path surfaces here as a validation error. */
  insert(project: NewProject): Promise<Project>;
  flush(): Promise<void>;
  /** Projects in these namespaces, for cascading deletes and details. */
  inNamespaces(namespaceIds: number[]): Promise<Project[]>;
  countInNamespace(namespaceId: number): Promise<number>;
  remove(projects: Project[]): Promise<void>;
  star(userId: number, projectId: number): Promise<boolean>;
  unstar(userId: number, projectId: number): Promise<boolean>;
  findShare(projectId: number, groupId: number): Promise<ProjectGroupLink | null>;
  insertShare(link: Pick<ProjectGroupLink, 'projectId' | 'groupId' | 'groupAccess' | 'expiresAt'>): Promise<ProjectGroupLink>;
  removeShare(link: ProjectGroupLink): Promise<void>;
  /** Projects marked for deletion at or before `cutoff`. */
  markedBefore(cutoff: Date): Promise<Project[]>;
  /** Records where review keeps the project's repository now (nothing when the project is gone). */
  setRepositoryStorage(projectId: number, storage: string): Promise<void>;
}

/** Taken names and paths are validation errors in GitLab, named by field. */
function translateProjectError(error: unknown): unknown {
  if (error instanceof UniqueConstraintViolationException) {
    const field = String(error.message).includes('projects_namespace_id_name_lower_key') ? 'name' : 'path';
    return new FieldValidationError({ [field]: ['has already been taken'] });
  }
  return translateDbError(error, { notFound: 'Namespace' });
}

/** Projects in PostgreSQL. `em` resolves to the current unit of work. */
export class PgProjectStore implements ProjectStore {
  readonly #em: EntityManager;
  readonly #namespaces: NamespaceStore;

  constructor(options: { em: EntityManager; namespaces: NamespaceStore }) {
    this.#em = options.em;
    this.#namespaces = options.namespaces;
  }

  markedBefore(cutoff: Date): Promise<Project[]> {
    return this.#em.find(Project, { markedForDeletionAt: { $lte: cutoff } }, { orderBy: { id: 'asc' } });
  }

  async setRepositoryStorage(projectId: number, storage: string): Promise<void> {
    if (projectId > MAX_ID) return;
    await this.#em.nativeUpdate(Project, { id: projectId }, { repositoryStorage: storage });
  }

  findById(id: number): Promise<Project | null> {
    if (id > MAX_ID) return Promise.resolve(null);
    return this.#em.findOne(Project, { id });
  }

  findByIds(ids: number[]): Promise<Project[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.#em.find(Project, { id: { $in: [...new Set(ids)] } });
  }

  async findByIdOrPath(idOrPath: number | string): Promise<Project | null> {
    if (typeof idOrPath === 'number') return this.findById(idOrPath);
    const slash = idOrPath.lastIndexOf('/');
    if (slash <= 0) return null;
    const namespace = await this.#namespaces.findByFullPath(idOrPath.slice(0, slash));
    if (!namespace) return null;
    const rows = await this.#em.execute<Array<{ id: number }>>(
      'select id from projects where namespace_id = ? and lower(path) = lower(?)',
      [namespace.id, idOrPath.slice(slash + 1)],
    );
    const id = rows[0]?.id;
    return id === undefined ? null : this.findById(id);
  }

  async insert(project: NewProject): Promise<Project> {
    const entity = this.#em.create(Project, project);
    await this.flush();
    return entity;
  }

  async flush(): Promise<void> {
    try {
      await this.#em.flush();
    } catch (error) {
      throw translateProjectError(error);
    }
  }

  inNamespaces(namespaceIds: number[]): Promise<Project[]> {
    if (namespaceIds.length === 0) return Promise.resolve([]);
    return this.#em.find(Project, { namespaceId: { $in: namespaceIds } }, { orderBy: { id: 'asc' } });
  }

  countInNamespace(namespaceId: number): Promise<number> {
    return this.#em.count(Project, { namespaceId });
  }

  async remove(projects: Project[]): Promise<void> {
    if (projects.length === 0) return;
    const ids = projects.map((project) => project.id);
    // Memberships and access requests reference their source without a foreign key.
    const kysely = this.#em.getKysely();
    await sql`delete from members where source_type = 'Project' and source_id = any(${ids}::integer[])`.execute(kysely);
    await sql`delete from projects where id = any(${ids}::integer[])`.execute(kysely);
    for (const project of projects) this.#em.getUnitOfWork().unsetIdentity(project);
  }

  async star(userId: number, projectId: number): Promise<boolean> {
    const rows = await this.#em.execute<Array<{ project_id: number }>>(
      'insert into project_stars (user_id, project_id) values (?, ?) on conflict do nothing returning project_id',
      [userId, projectId],
    );
    return rows.length > 0;
  }

  async unstar(userId: number, projectId: number): Promise<boolean> {
    return (await this.#em.nativeDelete(ProjectStar, { userId, projectId })) > 0;
  }

  findShare(projectId: number, groupId: number): Promise<ProjectGroupLink | null> {
    return this.#em.findOne(ProjectGroupLink, { projectId, groupId });
  }

  async insertShare(link: Pick<ProjectGroupLink, 'projectId' | 'groupId' | 'groupAccess' | 'expiresAt'>): Promise<ProjectGroupLink> {
    const entity = this.#em.create(ProjectGroupLink, link);
    try {
      await this.#em.flush();
    } catch (error) {
      throw translateDbError(error, { conflict: 'Project already shared with this group', notFound: 'Group' });
    }
    return entity;
  }

  async removeShare(link: ProjectGroupLink): Promise<void> {
    this.#em.remove(link);
    await this.#em.flush();
  }
}
