import type { EntityManager } from '@platform/db';
import type { Feature } from '@platform/service';
import { foldListCounts } from '../access/list-counts.ts';

/** How often the delta rows are folded: a count sums the rows written since, one per counted write statement. */
const FOLD_INTERVAL_MS = 10_000;

/** The maintained counts of unfiltered lists: their delta rows folded now and then. */
export function createListCountsFeature(deps: { em: EntityManager }): Feature {
  return {
    schedules: [{ name: 'identity.fold_list_counts', intervalMs: FOLD_INTERVAL_MS, run: () => foldListCounts(deps.em.getKysely()) }],
  };
}
