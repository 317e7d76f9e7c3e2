import { hash } from 'node:crypto';
import { LRUCache } from 'lru-cache';

/** One serialised answer to an Unleash client, with the entity tag SDKs send back in `If-None-Match`. */
export interface ClientFeaturesAnswer {
  body: Buffer;
  etag: string;
  /** The headers of the answer (200) and of a 304 to an SDK that holds it, built with it. */
  headers: { full: Record<string, string>; notModified: Record<string, string> };
}

/** Answers are small (about 150 bytes a flag); this many bytes hold thousands of projects' answers. */
export const CLIENT_FEATURES_CACHE_BYTES = 8 * 2 ** 20;

/** The two header objects of an answer, beyond its entity tag. */
const HEADERS_BYTES = 100;

/**
 * The Unleash client answer for a (project, revision, environment), built once and shared by
 * every request that reads the same revision. The caller asks with the project's current
 * revision (`UnleashClientStates`), so an entry is used only while its revision stands; entries
 * of old revisions are never asked for again and leave as the least recently used. Concurrent
 * requests for a missing answer wait for the one build.
 */
export class ClientFeaturesCache {
  readonly #answers: LRUCache<string, ClientFeaturesAnswer, () => Promise<unknown>>;

  constructor(options: { maxBytes?: number } = {}) {
    this.#answers = new LRUCache({
      maxSize: options.maxBytes ?? CLIENT_FEATURES_CACHE_BYTES,
      sizeCalculation: (answer, key) => answer.body.length + 2 * answer.etag.length + key.length + HEADERS_BYTES,
      fetchMethod: async (_key, _stale, { context: build }) => {
        const body = Buffer.from(JSON.stringify(await build()));
        const etag = `"${hash('sha256', body, 'base64url').slice(0, 27)}"`;
        return {
          body,
          etag,
          headers: { full: { 'Content-Type': 'application/json; charset=utf-8', ETag: etag }, notModified: { ETag: etag } },
        };
      },
    });
  }

  /**
   * The answer for the project at `revision` to clients in `environment`: as it is when kept
   * (no promise to wait for), else built by `build`.
   */
  answer(
    key: { projectId: number; revision: string; environment: string | undefined },
    build: () => Promise<unknown>,
  ): ClientFeaturesAnswer | Promise<ClientFeaturesAnswer> {
    // Project ids and revisions are digits, so the first two colons delimit them; no environment is ''.
    const cacheKey = `${key.projectId}:${key.revision}:${key.environment ?? ''}`;
    return this.#answers.get(cacheKey) ?? this.#built(cacheKey, build);
  }

  async #built(cacheKey: string, build: () => Promise<unknown>): Promise<ClientFeaturesAnswer> {
    const answer = await this.#answers.fetch(cacheKey, { context: build });
    if (!answer) throw new Error('the Unleash client answer was not built');
    return answer;
  }

  /** Bytes held, for the bound's test. */
  get size(): number {
    return this.#answers.calculatedSize;
  }
}
