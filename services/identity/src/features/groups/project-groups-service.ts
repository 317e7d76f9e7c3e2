import type { Page, PageWindow } from '@platform/db';
import type { Viewer } from '../access/access-sql.ts';
import type { AccessPolicy } from '../access/access-policy.ts';
import type { PublicGroup } from './group-rows.ts';
import type { ProjectGroupsReadModel } from './project-groups-read-model.ts';
import type { ProjectGroupsQuery } from './project-groups.schemas.ts';

/** `GET /projects/:id/groups`: a project's ancestor groups and, on request, the groups it is shared with. */
export class ProjectGroupsService {
  readonly #access: AccessPolicy;
  readonly #readModel: ProjectGroupsReadModel;

  constructor(options: { access: AccessPolicy; readModel: ProjectGroupsReadModel }) {
    this.#access = options.access;
    this.#readModel = options.readModel;
  }

  /**
   * For whoever may read the project (404 otherwise), as GitLab's `Projects::GroupsFinder`: the
   * groups above it whatever their visibility, and the groups it is shared with (`with_shared`),
   * of those granting at least `shared_min_access_level`, and only those the viewer may see
   * with `shared_visible_only`.
   */
  async list(viewer: Viewer, input: ProjectGroupsQuery, window: PageWindow): Promise<Page<PublicGroup>> {
    const { project, namespace } = await this.#access.project(viewer, input.id);
    return this.#readModel.list(
      {
        projectId: project.id,
        ancestorIds: namespace.kind === 'group' ? namespace.traversalIds : [],
        ...(input.with_shared
          ? {
              shared: {
                ...(input.shared_min_access_level !== undefined ? { minAccessLevel: input.shared_min_access_level } : {}),
                ...(input.shared_visible_only ? { visibleTo: viewer } : {}),
              },
            }
          : {}),
        ...(input.skip_groups ? { skipIds: input.skip_groups } : {}),
        ...(input.search ? { search: input.search } : {}),
      },
      window,
    );
  }
}
