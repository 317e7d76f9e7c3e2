import type { Caller } from '@platform/auth';
import { NotFoundError } from '@platform/errors';
import type { EventEnvelope } from '@platform/events';
import type { IdentityAccess } from '@platform/identity-client';
import type { Page, PageWindow } from '@platform/db';
import type { ActivityEvent } from './activity-event.entity.ts';
import type { ActivityUser } from './activity-user.entity.ts';
import type { ActivityEventFilter, ActivityEventStore, SortDirection } from './activity-events-store.ts';
import type { ActivityTranslation } from './activity-translations.ts';
import type { ProjectVisibility } from './project-visibility.ts';

/** Rows read at a time when a list is filtered by what the caller may see. */
const SCAN_BATCH = 100;

export interface ActivityQuery {
  filter: ActivityEventFilter;
  sort: SortDirection;
  window: PageWindow;
}

/** A page of events with the users who wrote them, for the views. */
export interface ActivityPage extends Page<ActivityEvent> {
  authors: Map<number, ActivityUser>;
}

export class ActivityEventsService {
  readonly #store: ActivityEventStore;
  readonly #access: Pick<IdentityAccess, 'project'>;
  readonly #visibility: ProjectVisibility;
  readonly #byType: Map<string, ActivityTranslation>;

  constructor(options: {
    store: ActivityEventStore;
    access: Pick<IdentityAccess, 'project'>;
    visibility: ProjectVisibility;
    translations: ActivityTranslation[];
  }) {
    this.#store = options.store;
    this.#access = options.access;
    this.#visibility = options.visibility;
    this.#byType = new Map(options.translations.map((translation) => [translation.type, translation]));
  }

  /** Records the activity a domain event stands for, if any. */
  async recordFrom(event: EventEnvelope): Promise<void> {
    const activity = this.#byType.get(event.type)?.handle(event);
    if (activity) await this.#store.record(activity);
  }

  rememberUser(user: ActivityUser): Promise<void> {
    return this.#store.saveUser(user);
  }

  /** A deleted user's events go with them (hard delete) or to the ghost user, as GitLab moves contributions. */
  async forgetUser(options: { id: number; hardDelete: boolean; ghostUserId: number }): Promise<void> {
    await this.#store.removeUser(options.id);
    if (options.hardDelete || !options.ghostUserId) await this.#store.removeOfAuthor(options.id);
    else await this.#store.reassignAuthor({ from: options.id, to: options.ghostUserId });
  }

  /** A deleted project's events go with it. */
  forgetProject(projectId: number): Promise<void> {
    return this.#store.removeOfProject(projectId);
  }

  /** `GET /events`: the caller's own events, or with `scope=all` everybody's in the projects the caller is a member of. */
  listForCaller(caller: Caller & { kind: 'user' }, query: ActivityQuery & { everyone: boolean }): Promise<ActivityPage> {
    if (query.everyone) return this.#listWhere(query, (projectId) => this.#visibility.isMember(caller, projectId));
    return this.#listWhere({ ...query, filter: { ...query.filter, authorId: caller.userId } }, (projectId) =>
      this.#visibility.maySee(caller, projectId),
    );
  }

  /** `GET /users/:id/events`: a user's events in the projects the caller may see; none of a private profile's but to its owner and administrators. */
  async listForUser(caller: Caller, idOrUsername: string, query: ActivityQuery): Promise<ActivityPage> {
    const user = await this.#store.findUser(idOrUsername);
    if (!user) throw new NotFoundError('User');
    const ownOrAdmin = caller.kind === 'user' && (caller.userId === user.id || caller.isAdmin);
    if (user.privateProfile && !ownOrAdmin) return { items: [], total: 0, hasNext: false, authors: new Map() };
    return this.#listWhere({ ...query, filter: { ...query.filter, authorId: user.id } }, (projectId) =>
      this.#visibility.maySee(caller, projectId),
    );
  }

  /** `GET /projects/:id/events`: every event of a project the caller may see (404 otherwise). */
  async listForProject(caller: Caller, projectIdOrPath: string, query: ActivityQuery): Promise<ActivityPage> {
    const project = await this.#access.project({ idOrPath: projectIdOrPath, caller });
    const page = await this.#store.page({ ...query.filter, projectId: project.id }, query.sort, query.window);
    return { ...page, authors: await this.#authorsOf(page.items) };
  }

  /**
   * The page of the list that `shown` keeps: rows are read in batches and filtered until the
   * page and one row beyond it are found. The total is known only when the list was read to its end.
   */
  async #listWhere(query: ActivityQuery, shown: (projectId: number) => Promise<boolean>): Promise<ActivityPage> {
    const wanted = query.window.offset + query.window.limit + 1;
    const kept: ActivityEvent[] = [];
    let exhausted = false;
    for (let offset = 0; kept.length < wanted && !exhausted; offset += SCAN_BATCH) {
      const rows = await this.#store.slice(query.filter, query.sort, { offset, limit: SCAN_BATCH });
      exhausted = rows.length < SCAN_BATCH;
      const projectIds = [...new Set(rows.map((row) => row.projectId).filter((id): id is number => typeof id === 'number'))];
      const visible = new Set<number>();
      await Promise.all(
        projectIds.map(async (projectId) => {
          if (await shown(projectId)) visible.add(projectId);
        }),
      );
      kept.push(...rows.filter((row) => typeof row.projectId === 'number' && visible.has(row.projectId)));
    }
    const items = kept.slice(query.window.offset, query.window.offset + query.window.limit);
    return {
      items,
      total: exhausted ? kept.length : null,
      hasNext: kept.length > query.window.offset + query.window.limit,
      authors: await this.#authorsOf(items),
    };
  }

  async #authorsOf(events: ActivityEvent[]): Promise<Map<number, ActivityUser>> {
    const users = await this.#store.usersByIds([...new Set(events.map((event) => event.authorId))]);
    return new Map(users.map((user) => [user.id, user]));
  }
}
