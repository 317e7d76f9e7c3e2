import type { NamespacePathsReadModel } from './namespace-paths-read-model.ts';
import { pathSlug, suggestionCandidates } from './namespace-suggestions.ts';

/** Candidates asked about at once; a time-based one is free all but always. */
const CANDIDATES_PER_QUERY = 8;
const MAX_QUERIES = 4;

/** Whether a namespace path is free under a parent, and which free path GitLab would suggest instead. */
export class NamespacesService {
  readonly #paths: NamespacePathsReadModel;
  readonly #now: () => Date;

  constructor(options: { paths: NamespacePathsReadModel; now?: () => Date }) {
    this.#paths = options.paths;
    this.#now = options.now ?? (() => new Date());
  }

  /** `GET /namespaces/:id/exists`: among top-level namespaces unless `parentId` names the parent. */
  async existence(path: string, parentId: number | null): Promise<{ exists: boolean; suggests: string[] }> {
    if (!(await this.#paths.pathTaken(parentId, path))) return { exists: false, suggests: [] };
    const slug = pathSlug(path);
    const now = this.#now();
    for (let query = 1; query <= MAX_QUERIES; query += 1) {
      const candidates = suggestionCandidates(slug, now, query * CANDIDATES_PER_QUERY).slice(-CANDIDATES_PER_QUERY);
      const taken = await this.#paths.takenPathsOrNames(parentId, candidates);
      const free = candidates.find((candidate) => !taken.has(candidate.toLowerCase()));
      if (free) return { exists: true, suggests: [free] };
    }
    return { exists: true, suggests: [] };
  }
}
