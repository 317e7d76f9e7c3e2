import { LRUCache } from 'lru-cache';
import type { Caller } from '@platform/auth';
import type { ProjectNames, UserDirectory, UserSummary } from './user-directory.ts';

/**
 * How long a kept summary is trusted while the event feed is live. The feed drops a user the
 * moment identity says they changed; this bounds what it cannot see: events lost to a feed that
 * rejoined between two reads, events that never reach Kafka (the outbox relay stuck), and what
 * changes a summary without an event of the user's (the instance's avatar settings).
 */
export const FOLLOWED_USER_TRUST_MS = 10_000;

/** About 200 bytes a summary: a few MB at most, whatever the lists ask for. */
export const FOLLOWED_USERS_MAX = 10_000;

/**
 * Identity's user summaries kept between requests, so that the merge request, issue and note
 * lists do not ask identity for the same authors on every page. A summary tells nothing about
 * access (GetUsers answers every caller alike), so it may be kept while identity's user events
 * reach this replica: `forget` drops a user when one arrives. A summary is trusted only while
 * the feed is live and for `trustMs` at most; otherwise every page asks identity as before.
 * Unknown ids are never kept: they are asked again.
 */
export class FollowedUserDirectory implements UserDirectory {
  readonly #directory: UserDirectory;
  readonly #followed: () => boolean;
  readonly #now: () => number;
  readonly #kept: LRUCache<number, UserSummary>;
  /** Counts the users forgotten: an answer asked for before one was forgotten is not kept. */
  #forgotten = 0;

  constructor(options: {
    directory: UserDirectory;
    /** True while every user event reaches this replica. */
    followed: () => boolean;
    trustMs?: number;
    maxUsers?: number;
    /** The clock of the trust's time, in milliseconds (`performance.now` unless a test moves it). */
    now?: () => number;
  }) {
    this.#directory = options.directory;
    this.#followed = options.followed;
    const now = options.now ?? (() => performance.now());
    this.#now = now;
    // The clock is read at every lookup (no `ttlResolution` debounce): a summary lapses on time
    // however fast the lookups come, and a test's clock moves between two of them.
    this.#kept = new LRUCache({
      max: options.maxUsers ?? FOLLOWED_USERS_MAX,
      ttl: options.trustMs ?? FOLLOWED_USER_TRUST_MS,
      ttlResolution: 0,
      perf: { now },
    });
  }

  async users(ids: number[], caller: Caller): Promise<Map<number, UserSummary>> {
    const found = new Map<number, UserSummary>();
    const missing: number[] = [];
    // Asked before the call: what is read while events may be missed is not kept.
    const followed = this.#followed();
    const now = this.#now();
    for (const id of new Set(ids)) {
      const kept = followed ? this.#kept.get(id) : undefined;
      if (kept) found.set(id, kept);
      else missing.push(id);
    }
    if (missing.length === 0) return found;
    const forgotten = this.#forgotten;
    const answered = await this.#directory.users(missing, caller);
    // An event that arrived during the call may have been about a user it answered as before.
    const keep = followed && forgotten === this.#forgotten;
    for (const id of missing) {
      const user = answered.get(id);
      if (!user) continue;
      found.set(id, user);
      // Trusted from when it was asked for, not from when the answer came.
      if (keep) this.#kept.set(id, user, { start: now });
    }
    return found;
  }

  /** Drops what is kept of the user; an answer under way is answered but not kept. */
  forget(userId: number): void {
    this.#forgotten += 1;
    this.#kept.delete(userId);
  }

  /** How many summaries are kept, for the bound's test. */
  get size(): number {
    return this.#kept.size;
  }

  namespaceIdsOf(projectId: number): Promise<number[]> {
    return this.#directory.namespaceIdsOf(projectId);
  }

  projectNames(projectId: number): Promise<ProjectNames> {
    return this.#directory.projectNames(projectId);
  }

  close(): void {
    this.#directory.close();
  }
}
