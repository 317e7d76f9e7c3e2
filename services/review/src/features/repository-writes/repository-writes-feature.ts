import type { RepositoriesService } from '../repositories/repositories-service.ts';
import { CommitWriter } from './commit-writer.ts';
import { RefUpdates, type PushRules } from './ref-updates.ts';

/** What the API's writes share: ref updates judged and recorded as pushes, and commits written without a work tree. */
export interface RepositoryWrites {
  refUpdates: RefUpdates;
  commits: CommitWriter;
}

export function createRepositoryWrites(deps: { repositories: RepositoriesService; rules: PushRules }): RepositoryWrites {
  const refUpdates = new RefUpdates({ repositories: deps.repositories, rules: deps.rules });
  return { refUpdates, commits: new CommitWriter({ refUpdates, rules: deps.rules }) };
}
