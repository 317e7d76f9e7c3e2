import type { RepositoriesService } from '../repositories/repositories-service.ts';
import { ChangePicker } from './change-picker.ts';
import { CommitWriter } from './commit-writer.ts';
import { RefUpdates, type PushRules } from './ref-updates.ts';

/** What the API's writes share: ref updates judged and recorded as pushes, commits written without a work tree, cherry-picks and reverts. */
export interface RepositoryWrites {
  refUpdates: RefUpdates;
  commits: CommitWriter;
  picker: ChangePicker;
}

export function createRepositoryWrites(deps: { repositories: RepositoriesService; rules: PushRules }): RepositoryWrites {
  const refUpdates = new RefUpdates({ repositories: deps.repositories, rules: deps.rules });
  return { refUpdates, commits: new CommitWriter({ refUpdates }), picker: new ChangePicker({ refUpdates }) };
}
