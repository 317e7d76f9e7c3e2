import type { EntityManager } from '@mikro-orm/postgresql';
import { InputError, NotFoundError, RefusedError } from '@platform/errors';
import type { EventActor } from '@platform/events';
import { recordEvent } from '@platform/events/database';
import type { ContainerRegistryTags } from '@platform/packages-client';
import { ACCESS_LEVEL } from '@platform/identity-client';
import type { Namespace, Visibility } from '../access/namespace.entity.ts';
import type { NamespaceStore } from '../access/namespaces-store.ts';
import type { UserStore } from '../users/users-store.ts';
import type { Viewer } from '../access/access-sql.ts';
import type { AccessPolicy } from '../access/access-policy.ts';
import { projectSource, type MembersService } from '../members/members-service.ts';
import type { Project } from '../access/project.entity.ts';
import type { ProjectStore } from './projects-store.ts';
import { visibilityWithin, type ProjectTransferStore } from './project-transfer-store.ts';
import { projectSnapshot, projectTransferredEvent } from './projects.events.ts';
import { anyHasContainerTags, CONTAINER_REGISTRY_TAGS_ERRORS } from './container-registry-paths.ts';

/** GitLab's reasons for a refused project transfer. */
export const PROJECT_TRANSFER_ERRORS = {
  sameNamespace: 'Project is already in this namespace.',
  permission: "You don't have permission to transfer projects into that namespace.",
  pathTaken: 'Project with same path in target namespace already exists',
  containerTags: CONTAINER_REGISTRY_TAGS_ERRORS.projectTransfer,
};

/** GitLab renders the project's errors hash into its message, in Ruby's notation. */
function refused(field: string, reason: string): RefusedError {
  return new RefusedError(`Failed to transfer project {:${field}=>[${JSON.stringify(reason)}]}`);
}

/**
 * Moves a project to another namespace, as GitLab's `PUT /projects/:id/transfer`: Owner of the
 * project, and allowed to transfer projects into the namespace (its owner for a personal one;
 * Maintainer of a group that allows creating projects). A project more visible than its new group
 * becomes as visible as the group. Its repository is found by id, so git follows the new path.
 */
export class ProjectTransferService {
  readonly #em: EntityManager;
  readonly #transfers: ProjectTransferStore;
  readonly #projects: ProjectStore;
  readonly #namespaces: NamespaceStore;
  readonly #members: MembersService;
  readonly #access: AccessPolicy;
  readonly #users: UserStore;
  readonly #containerRegistry: ContainerRegistryTags;

  constructor(options: {
    em: EntityManager;
    transfers: ProjectTransferStore;
    projects: ProjectStore;
    namespaces: NamespaceStore;
    members: MembersService;
    access: AccessPolicy;
    users: UserStore;
    containerRegistry: ContainerRegistryTags;
  }) {
    this.#em = options.em;
    this.#transfers = options.transfers;
    this.#projects = options.projects;
    this.#namespaces = options.namespaces;
    this.#members = options.members;
    this.#access = options.access;
    this.#users = options.users;
    this.#containerRegistry = options.containerRegistry;
  }

  /** `namespace` is an id or a full path; one the viewer cannot see is 404 Namespace Not Found. */
  async transfer(
    viewer: Viewer,
    actor: EventActor,
    input: { id: number | string; namespace?: number | string | undefined },
  ): Promise<Project> {
    const { project } = await this.#access.projectWith(viewer, input.id, ACCESS_LEVEL.OWNER);
    if (input.namespace === undefined) throw new InputError('namespace is missing');
    const target = await this.#visibleNamespace(viewer, input.namespace);
    return this.#moveInto(viewer, actor, project, target);
  }

  /** `POST /groups/:id/projects/:project_id`, administrators only: the same transfer, into a group named first. */
  async transferIntoGroup(viewer: Viewer, actor: EventActor, input: { id: number | string; project_id: number | string }) {
    const { group } = await this.#access.group(viewer, input.id);
    const { project } = await this.#access.projectWith(viewer, input.project_id, ACCESS_LEVEL.OWNER);
    await this.#moveInto(viewer, actor, project, group);
    return group;
  }

  async #moveInto(viewer: Viewer, actor: EventActor, project: Project, target: Namespace): Promise<Project> {
    if (target.id === project.namespaceId) throw refused('new_namespace', PROJECT_TRANSFER_ERRORS.sameNamespace);
    if (!(await this.#mayTransferInto(viewer, target))) throw refused('new_namespace', PROJECT_TRANSFER_ERRORS.permission);
    const clash = await this.#transfers.clashIn(target.id, project);
    if (clash === 'path') throw refused('new_namespace', PROJECT_TRANSFER_ERRORS.pathTaken);
    if (clash === 'name') throw refused('name', 'has already been taken');
    if (await anyHasContainerTags(this.#containerRegistry, [project.id]))
      throw refused('new_namespace', PROJECT_TRANSFER_ERRORS.containerTags);

    return this.#em.transactional(async (em) => {
      const before = await this.#namespaces.lineageOf([project.namespaceId]);
      const previous = projectSnapshot(project, before);
      project.namespaceId = target.id;
      if (target.kind === 'group') project.visibility = visibilityWithin(project.visibility as Visibility, target.visibility as Visibility);
      await this.#projects.flush();
      if (target.kind === 'user' && target.ownerId != null) {
        // A personal project's owner holds it as Owner, as on creation.
        const level = (await this.#access.projectAccessLevels(await this.#access.viewerFor(target.ownerId), [project.id])).get(project.id);
        if ((level ?? 0) < ACCESS_LEVEL.OWNER) {
          await this.#members.addMember({
            source: projectSource(project, target),
            userId: target.ownerId,
            accessLevel: ACCESS_LEVEL.OWNER,
            actor,
          });
        }
      }
      const after = await this.#namespaces.withAncestors([target]);
      recordEvent(em, {
        ...projectTransferredEvent({
          project: projectSnapshot(project, after),
          previousPathWithNamespace: previous.pathWithNamespace,
          previousNamespaceId: previous.namespaceId,
        }),
        actor,
      });
      return project;
    });
  }

  async #visibleNamespace(viewer: Viewer, idOrPath: number | string): Promise<Namespace> {
    const namespace =
      typeof idOrPath === 'number' ? await this.#namespaces.findById(idOrPath) : await this.#namespaces.findByFullPath(idOrPath);
    if (!namespace) throw new NotFoundError('Namespace');
    await this.#access.requireVisibleNamespace(viewer, namespace);
    return namespace;
  }

  /** GitLab's `transfer_projects`: owners of a personal namespace within their project limit; group maintainers where projects may be created. */
  async #mayTransferInto(viewer: Viewer, namespace: Namespace): Promise<boolean> {
    if (viewer.kind !== 'user') return false;
    if (namespace.kind === 'user') {
      if (!viewer.isAdmin && namespace.ownerId !== viewer.userId) return false;
      const owner = namespace.ownerId == null ? null : await this.#users.findById(namespace.ownerId);
      if (!owner || owner.external) return false;
      return (await this.#projects.countInNamespace(namespace.id)) < owner.projectsLimit;
    }
    if (viewer.isAdmin) return true;
    if (namespace.projectCreationLevel === 'noone') return false;
    const { accessLevel } = await this.#access.group(viewer, namespace.id);
    return accessLevel >= ACCESS_LEVEL.MAINTAINER;
  }
}
