import { actorOf, type AuthenticatedCaller } from '@platform/auth';
import type { EntityManager, Page, PageWindow } from '@platform/db';
import { deliveryEvents } from '@platform/delivery-client';
import { ConflictError, InvalidRecordError, NotFoundError } from '@platform/errors';
import type { ProjectAccess } from '@platform/identity-client';
import type { ClientAnswerChanges } from './client-answer-changes.ts';
import type { FeatureFlagUserList } from './feature-flag.entity.ts';
import { validUserIds } from './strategy-rules.ts';
import type { PgUserListStore } from './user-lists-store.ts';

const USER_XIDS_PROBLEM = 'User xids user_xids must be a string of unique comma separated values each 256 characters or less';

/** GitLab's checks of a list's fields, as full messages. */
function problemsOf(fields: { name?: string | undefined; userXids?: string | undefined }): string[] {
  return fields.userXids !== undefined && fields.userXids !== '' && !validUserIds(fields.userXids) ? [USER_XIDS_PROBLEM] : [];
}

async function refusingConflicts<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ConflictError) throw new InvalidRecordError([error.message]);
    throw error;
  }
}

/** Named sets of users (`user_xids`) that `svcUserList` strategies target. */
export class UserListsService {
  readonly #em: EntityManager;
  readonly #store: PgUserListStore;
  readonly #changes: ClientAnswerChanges;

  constructor(deps: { em: EntityManager; store: PgUserListStore; changes: ClientAnswerChanges }) {
    this.#em = deps.em;
    this.#store = deps.store;
    this.#changes = deps.changes;
  }

  list(project: ProjectAccess, options: { search?: string | undefined; window: PageWindow }): Promise<Page<FeatureFlagUserList>> {
    return this.#store.list(project.id, options);
  }

  async get(project: ProjectAccess, iid: number): Promise<FeatureFlagUserList> {
    const list = await this.#store.byIid(project.id, iid);
    if (!list) throw new NotFoundError();
    return list;
  }

  async create(project: ProjectAccess, fields: { name: string; userXids: string }): Promise<FeatureFlagUserList> {
    const problems = problemsOf(fields);
    if (problems.length > 0) throw new InvalidRecordError(problems);
    return refusingConflicts(() => this.#em.transactional(() => this.#store.create({ projectId: project.id, ...fields })));
  }

  async update(
    project: ProjectAccess,
    iid: number,
    input: { name?: string | undefined; userXids?: string | undefined; caller: AuthenticatedCaller },
  ): Promise<FeatureFlagUserList> {
    const list = await this.get(project, iid);
    const fields = { name: input.name, userXids: input.userXids };
    const problems = problemsOf(fields);
    if (problems.length > 0) throw new InvalidRecordError(problems);
    const updated = await refusingConflicts(() =>
      this.#em.transactional(() =>
        this.#store.update(list, {
          changes: fields,
          events: (updated) => [
            deliveryEvents.featureFlagUserListUpdated.event({
              aggregateId: project.id,
              data: {
                projectId: project.id,
                projectPath: project.pathWithNamespace,
                userListId: updated.id,
                iid: updated.iid,
                name: updated.name,
              },
            }),
          ],
          actor: actorOf(input.caller),
        }),
      ),
    );
    this.#changes.changed(updated.projectId);
    return updated;
  }

  /** GitLab keeps a list that a strategy uses: 409. */
  async delete(project: ProjectAccess, iid: number): Promise<void> {
    const list = await this.get(project, iid);
    if (!(await this.#em.transactional(() => this.#store.delete(list)))) throw new ConflictError('User list is associated with a strategy');
  }
}
