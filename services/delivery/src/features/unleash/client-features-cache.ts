import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';

/** One serialised answer to an Unleash client, with the entity tag SDKs send back in `If-None-Match`. */
export interface ClientFeaturesAnswer {
  body: Buffer;
  etag: string;
}

/** Answers are small (about 150 bytes a flag); this many bytes hold thousands of projects' answers. */
export const CLIENT_FEATURES_CACHE_BYTES = 8 * 2 ** 20;

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
      sizeCalculation: (answer, key) => answer.body.length + answer.etag.length + key.length,
      fetchMethod: async (_key, _stale, { context: build }) => {
        const body = Buffer.from(JSON.stringify(await build()));
        return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
      },
    });
  }

  /** The answer for the project at `revision` to clients in `environment`, built by `build` when not kept. */
  async answer(
    key: { projectId: number; revision: string; environment: string | undefined },
    build: () => Promise<unknown>,
  ): Promise<ClientFeaturesAnswer> {
    const answer = await this.#answers.fetch(JSON.stringify([key.projectId, key.revision, key.environment ?? null]), { context: build });
    if (!answer) throw new Error('the Unleash client answer was not built');
    return answer;
  }

  /** Bytes held, for the bound's test. */
  get size(): number {
    return this.#answers.calculatedSize;
  }
}
