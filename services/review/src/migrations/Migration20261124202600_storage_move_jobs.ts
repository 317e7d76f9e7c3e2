import { Migration } from '@platform/db';

/**
 * Storage moves are carried out as jobs of the service's job queue (`background_jobs`), which
 * holds the claim: each move with work left becomes a job, and the move's own claim goes.
 */
export class Migration20261124202600_storage_move_jobs extends Migration {
  override name = 'Migration20261124202600_storage_move_jobs';

  override up(): void {
    this.addSql(`insert into background_jobs (kind, payload, max_attempts, created_at)
      select 'review.storage_move', jsonb_build_object('moveId', id), 5, now()
      from repository_storage_moves where state in ('scheduled', 'started', 'replicated') order by id`);
    this.addSql('drop index repository_storage_moves_pending_index');
    this.addSql('alter table repository_storage_moves drop column claimed_until');
  }
}
