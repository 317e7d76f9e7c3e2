import { hash, timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { UnleashClientState } from '../feature-flags/feature-flags-client-store.ts';

/** A project's state as kept: its instance id's digest (the token itself is never kept) and revision. */
interface KeptState {
  tokenDigest: Buffer;
  revision: string;
  readAt: number;
}

/** About 150 bytes a project: this many bytes keep the states of several thousand projects. */
export const CLIENT_STATES_CACHE_BYTES = 2 ** 20;

/**
 * How long a kept state is trusted while the event feed is live. The feed should drop a state
 * the moment it changes; this bounds the cases where it cannot: a feed that lost events and
 * rejoined between two polls, or events that never reach Kafka (the outbox relay stuck).
 */
export const FOLLOWED_STATE_TRUST_MS = 10_000;

/** Per kept state: the digest, the revision (a transaction id), the project id key and the LRU's own bookkeeping. */
const KEPT_STATE_OVERHEAD_BYTES = 100;

/** One-shot: no hash object per poll. */
const digestOf = (token: string) => hash('sha256', token, 'buffer');

/**
 * Each project's Unleash instance id and flags revision, kept in memory, so that polls between
 * changes run no statement. A kept state is trusted only while the event feed that forgets
 * changed projects is live, and for `trustMs` at most; otherwise each poll reads the state again
 * (one statement, shared by concurrent polls). A project without an instance id is not kept.
 * `forget` drops a project at once (the change was made on this replica) and keeps a read
 * started before it from being kept.
 */
export class UnleashClientStates {
  readonly #kept: LRUCache<number, KeptState>;
  readonly #reading = new Map<number, Promise<KeptState | null>>();
  readonly #read: (projectId: number) => Promise<UnleashClientState | null>;
  readonly #followed: () => boolean;
  readonly #trustMs: number;
  readonly #now: () => number;

  constructor(options: {
    read: (projectId: number) => Promise<UnleashClientState | null>;
    /** True while every change event reaches this replica. */
    followed: () => boolean;
    maxBytes?: number;
    trustMs?: number;
    now?: () => number;
  }) {
    this.#read = options.read;
    this.#followed = options.followed;
    this.#trustMs = options.trustMs ?? FOLLOWED_STATE_TRUST_MS;
    this.#now = options.now ?? Date.now;
    this.#kept = new LRUCache({
      maxSize: options.maxBytes ?? CLIENT_STATES_CACHE_BYTES,
      sizeCalculation: (state) => state.revision.length + KEPT_STATE_OVERHEAD_BYTES,
    });
  }

  /**
   * The revision the project's clients are answered, when `token` is its instance id; null
   * otherwise. A token that does not match a kept state is checked against a fresh read, so a
   * new instance id works at once on every replica. A kept state answers as it is, without a
   * promise to wait for: most polls end there.
   */
  revisionFor(projectId: number, token: string): string | null | Promise<string | null> {
    const presented = digestOf(token);
    const kept = this.#kept.get(projectId);
    if (kept && this.#trusted(kept) && timingSafeEqual(kept.tokenDigest, presented)) return kept.revision;
    return this.#readOnce(projectId).then((current) =>
      current && timingSafeEqual(current.tokenDigest, presented) ? current.revision : null,
    );
  }

  /** Drops what is kept of the project; a read under way is answered but not kept. */
  forget(projectId: number): void {
    this.#kept.delete(projectId);
    this.#reading.delete(projectId);
  }

  /** Bytes held, for the bound's test. */
  get size(): number {
    return this.#kept.calculatedSize;
  }

  #trusted(kept: KeptState): boolean {
    return this.#followed() && this.#now() - kept.readAt < this.#trustMs;
  }

  #readOnce(projectId: number): Promise<KeptState | null> {
    const pending = this.#reading.get(projectId);
    if (pending) return pending;
    // Asked before the statement: a state read while events were missed must not be trusted later.
    const followed = this.#followed();
    const readAt = this.#now();
    const reading: Promise<KeptState | null> = this.#read(projectId)
      .then((state) => {
        const current = state && { tokenDigest: digestOf(state.token), revision: state.revision, readAt };
        if (this.#reading.get(projectId) === reading) {
          if (current && followed) this.#kept.set(projectId, current);
          else this.#kept.delete(projectId);
        }
        return current;
      })
      .finally(() => {
        if (this.#reading.get(projectId) === reading) this.#reading.delete(projectId);
      });
    this.#reading.set(projectId, reading);
    return reading;
  }
}
