import { actorOf, type AuthenticatedCaller } from '@platform/auth';
import type { ApplicationSettingsSource } from '@platform/admin-client';
import type { EntityManager } from '@platform/db';
import { ForbiddenError } from '@platform/errors';
import type { Logger } from '@platform/logger';
import { commitSubject, DEFAULT_DIFF_LIMITS, ZERO_SHA, GitRepository, type DiffLimits } from './git-repository.ts';
import type { Repository } from './repository.entity.ts';
import type { RepositoryStore } from './repositories-store.ts';
import { hashedDiskPath, type RepositoryStorages } from './repository-storages.ts';
import { firstDefaultBranch, refChanges, type RefChange } from './ref-changes.ts';
import { reviewEvents } from '@platform/review-client';

/** The branch HEAD names in a new repository, as GitLab's default `default_branch`. */
export const INITIAL_BRANCH = 'main';
/** GitLab's refusal of a change to a repository that is read-only (during a storage move). */
export const READ_ONLY_MESSAGE = 'The repository is temporarily read-only. Please try again later.';
/** A change refused because the repository is read-only, or was moved to another storage while the change waited. */
export class RepositoryReadOnlyError extends ForbiddenError {
  override name = 'RepositoryReadOnlyError';
  constructor() {
    super(READ_ONLY_MESSAGE);
  }
}
/** How many commit titles a push event carries at most. */
const TITLES_PER_EVENT = 20;

/** A project's repository, ready to use. */
export interface ProjectRepository {
  projectId: number;
  readOnly: boolean;
  git: GitRepository;
}

/** What the service does once the first branch of an empty repository makes it the default branch. */
export type DefaultBranchListener = (options: { projectId: number; branch: string; caller: AuthenticatedCaller }) => Promise<void>;

/** What the service does once a change to refs was recorded (merge requests follow their branches). */
export type RefsChangedListener = (options: { projectId: number; changes: RefChange[] }) => Promise<void>;

/**
 * Each project's bare repository: created when the project is (or on first use, whichever comes
 * first), removed with it. Changes to refs are serialised per repository (across replicas), so
 * that a push is seen as one before/after difference and recorded as the events it caused.
 */
export class RepositoriesService {
  readonly #em: EntityManager;
  readonly #store: RepositoryStore;
  readonly #storages: RepositoryStorages;
  readonly #settings: ApplicationSettingsSource;
  readonly #logger: Logger;
  readonly #onDefaultBranch: DefaultBranchListener;
  readonly #refsChangedListeners: RefsChangedListener[] = [];

  constructor(options: {
    em: EntityManager;
    store: RepositoryStore;
    storages: RepositoryStorages;
    /** `repository_storages_weighted` chooses the storage of a new repository; `diff_max_patch_bytes` bounds diffs. */
    settings: ApplicationSettingsSource;
    logger: Logger;
    onDefaultBranch: DefaultBranchListener;
  }) {
    this.#em = options.em;
    this.#store = options.store;
    this.#storages = options.storages;
    this.#settings = options.settings;
    this.#logger = options.logger;
    this.#onDefaultBranch = options.onDefaultBranch;
  }

  /** Adds a listener told of every recorded change to refs, after it was recorded. */
  onRefsChanged(listener: RefsChangedListener): void {
    this.#refsChangedListeners.push(listener);
  }

  #open(repository: Repository): ProjectRepository {
    const git = new GitRepository(this.#storages.pathOf(repository), { diffLimits: () => this.#diffLimits() });
    return { projectId: repository.projectId, readOnly: repository.readOnly, git };
  }

  /** GitLab's `diff_max_patch_bytes` as the administrator set it (its default until the settings were read). */
  #diffLimits(): DiffLimits {
    const { diffMaxPatchBytes } = this.#settings.current();
    return { ...DEFAULT_DIFF_LIMITS, maxPatchBytes: diffMaxPatchBytes > 0 ? diffMaxPatchBytes : DEFAULT_DIFF_LIMITS.maxPatchBytes };
  }

  /** The project's repository, created on a storage drawn by `repository_storages_weighted` when it has none yet. */
  async ensure(projectId: number, options: { forkedFromProjectId?: number | null } = {}): Promise<ProjectRepository> {
    return this.#open(await this.#ensureRecord(projectId, options));
  }

  /** The storage of the project's repository, created as `ensure` creates it when it has none yet. */
  async ensureStorage(projectId: number, options: { forkedFromProjectId?: number | null } = {}): Promise<string> {
    return (await this.#ensureRecord(projectId, options)).storage;
  }

  async #ensureRecord(projectId: number, options: { forkedFromProjectId?: number | null }): Promise<Repository> {
    const existing = await this.#store.find(projectId);
    if (existing) return existing;
    const storage = this.#storages.pick(this.#settings.current().repositoryStoragesWeighted);
    const diskPath = hashedDiskPath(projectId);
    // On disk first: a row never points at a directory that is not there.
    const git = new GitRepository(this.#storages.pathOf({ storage, diskPath }));
    await git.create(INITIAL_BRANCH);
    // A fork starts as a copy of the repository it was forked from.
    const source = options.forkedFromProjectId ? await this.#store.find(options.forkedFromProjectId) : null;
    if (source) await git.copyFrom(this.#open(source).git);
    const created = await this.#em.transactional(() =>
      this.#store.insertIfMissing({ projectId, storage, diskPath, createdAt: new Date() }),
    );
    // Another request created it meanwhile, on a storage of its own drawing: ours is left empty.
    if (created.storage !== storage) await new GitRepository(this.#storages.pathOf({ storage, diskPath })).remove();
    this.#logger.info({ projectId, storage: created.storage, diskPath: created.diskPath }, 'repository created');
    return created;
  }

  /** The project's repository if it has one, never creating it (a deleted fork's stays gone). */
  async find(projectId: number): Promise<ProjectRepository | null> {
    const existing = await this.#store.find(projectId);
    return existing ? this.#open(existing) : null;
  }

  async remove(projectId: number): Promise<void> {
    const existing = await this.#store.find(projectId);
    if (!existing) return;
    await this.#em.transactional(() => this.#store.delete(projectId));
    await this.#open(existing).git.remove();
    this.#logger.info({ projectId }, 'repository removed');
  }

  /**
   * Runs `change` (a push, a branch created through the API) alone on the repository, then
   * records what it changed: a `review.repository.pushed` event per ref, written with the
   * repository's `pushed_at`, and the default branch of a first push. One transaction holds the
   * repository's lock throughout: what `change` writes commits with the push's record, or not at
   * all. The listeners to changed refs are told once it committed, outside the lock, as GitLab
   * refreshes merge requests in a job after the push.
   */
  async changeRefs<Result>(repository: ProjectRepository, caller: AuthenticatedCaller, change: () => Promise<Result>): Promise<Result> {
    // A storage move holds the lock while it copies: refuse at once rather than wait for it to end.
    await this.#requireWritable(repository);
    const { result, changes } = await this.#em.transactional(async () => {
      await this.#store.lock(repository.projectId);
      // A storage move may have begun (or ended) since the repository was opened.
      await this.#requireWritable(repository);
      const before = await repository.git.refs();
      const result = await change();
      const after = await repository.git.refs();
      return { result, changes: await this.#record({ repository, caller, before, after }) };
    });
    for (const listener of changes.length > 0 ? this.#refsChangedListeners : []) {
      // The refs moved already; a listener's failure is logged, not turned into a failed push.
      await listener({ projectId: repository.projectId, changes }).catch((error: unknown) =>
        this.#logger.error({ err: error, projectId: repository.projectId }, 'a listener to changed refs failed'),
      );
    }
    return result;
  }

  async #requireWritable(repository: ProjectRepository): Promise<void> {
    const current = await this.#store.find(repository.projectId, { fresh: true });
    if (!current || current.readOnly || this.#storages.pathOf(current) !== repository.git.path) throw new RepositoryReadOnlyError();
  }

  /** Records the push's events and a first push's default branch; answers what changed. */
  async #record(options: {
    repository: ProjectRepository;
    caller: AuthenticatedCaller;
    before: Map<string, string>;
    after: Map<string, string>;
  }): Promise<RefChange[]> {
    const { repository, before, after } = options;
    const changes = refChanges(before, after);
    if (changes.length === 0) return changes;
    const events = await Promise.all(
      changes.map(async (change) => {
        // New to the repository: reachable from the ref now, from no ref before (the ref's old head included).
        const excluded = [...new Set(before.values())];
        const [count, commits] =
          change.after === ZERO_SHA
            ? [0, []]
            : await Promise.all([
                repository.git.commitCount({ head: change.after, excluded }),
                repository.git.newCommitsWithChanges({ head: change.after, excluded, limit: TITLES_PER_EVENT }),
              ]);
        return reviewEvents.repositoryPushed.event({
          aggregateId: repository.projectId,
          data: {
            projectId: repository.projectId,
            ...change,
            commitCount: count,
            commitTitles: commits.map((commit) => commitSubject(commit.message)),
            commits: [...commits].reverse().map((commit) => ({
              id: commit.id,
              message: commit.message,
              authorName: commit.authorName,
              authorEmail: commit.authorEmail,
              timestamp: commit.committedDate,
              added: commit.added,
              modified: commit.modified,
              removed: commit.removed,
            })),
          },
        });
      }),
    );
    await this.#store.recordPush({ projectId: repository.projectId, pushedAt: new Date(), actor: actorOf(options.caller), events });

    const defaultBranch = firstDefaultBranch({ before, after, headBranch: await repository.git.headBranch() });
    if (defaultBranch === undefined) return changes;
    await repository.git.setHeadBranch(defaultBranch);
    // The push itself succeeded; a failure to tell is logged, not turned into a failed push.
    await this.#onDefaultBranch({ projectId: repository.projectId, branch: defaultBranch, caller: options.caller }).catch(
      (error: unknown) =>
        this.#logger.error({ err: error, projectId: repository.projectId, branch: defaultBranch }, 'the default branch was not recorded'),
    );
    return changes;
  }
}
