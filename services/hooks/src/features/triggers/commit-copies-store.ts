import type { EntityManager } from '@platform/db';
import { CommitCopy } from './commit-copy.entity.ts';
import type { CommitFacts } from './hook-payloads.ts';

/** Pushed commits as their pushes described them; in the unit of work it is given. */
export class PgCommitCopyStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  async save(commits: CommitCopy[]): Promise<void> {
    if (commits.length > 0) await this.#em.upsertMany(CommitCopy, commits);
  }

  /** The commit a push of the project described; undefined when none did. */
  async find(projectId: number, sha: string): Promise<CommitFacts | undefined> {
    const copy = await this.#em.findOne(CommitCopy, { projectId, sha });
    return copy
      ? { id: copy.sha, message: copy.message, authorName: copy.authorName, authorEmail: copy.authorEmail, timestamp: copy.timestamp }
      : undefined;
  }
}
