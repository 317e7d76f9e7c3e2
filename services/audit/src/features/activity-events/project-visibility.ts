import { LRUCache } from 'lru-cache';
import type { Caller } from '@platform/auth';
import { NotFoundError } from '@platform/errors';
import { ACCESS_LEVEL, type IdentityAccess } from '@platform/identity-client';

/** A caller's standing in a project: invisible, visible (level 0), or a member's access level. */
const INVISIBLE = -1;

/**
 * Whether a caller may see a project, and whether they are its member, as identity answers;
 * answers are kept for `ttlMs`, so that a page of events asks once per project, not per event.
 * A lost membership shows within that time.
 */
export class ProjectVisibility {
  readonly #access: Pick<IdentityAccess, 'project'>;
  readonly #levels: LRUCache<string, number>;

  constructor(options: { access: Pick<IdentityAccess, 'project'>; ttlMs: number; maxEntries?: number }) {
    this.#access = options.access;
    this.#levels = new LRUCache({ max: options.maxEntries ?? 10_000, ttl: Math.max(1, options.ttlMs) });
  }

  async maySee(caller: Caller, projectId: number): Promise<boolean> {
    return (await this.#level(caller, projectId)) !== INVISIBLE;
  }

  /** A member through a membership or share (GitLab's authorized projects); an administrator's rights alone do not count. */
  async isMember(caller: Caller, projectId: number): Promise<boolean> {
    return (await this.#level(caller, projectId)) >= ACCESS_LEVEL.GUEST;
  }

  async #level(caller: Caller, projectId: number): Promise<number> {
    const key = `${caller.kind === 'user' ? `${caller.userId}${caller.isAdmin ? 'a' : ''}` : 'anonymous'}:${projectId}`;
    const cached = this.#levels.get(key);
    if (cached !== undefined) return cached;
    const level = await this.#access.project({ idOrPath: String(projectId), caller }).then(
      (project) => project.accessLevel,
      (error: unknown) => {
        if (error instanceof NotFoundError) return INVISIBLE;
        throw error;
      },
    );
    this.#levels.set(key, level);
    return level;
  }
}
