import { Migration } from '@platform/db';

/**
 * A merge request list counts each one's comments and asks whether a thread of it is unresolved:
 * by these, it reads the entries of the page's merge requests only (an index-only count; an
 * unresolved thread is one probe), not every note's row.
 */
export class Migration20261127032000_merge_request_note_counts extends Migration {
  override name = 'Migration20261127032000_merge_request_note_counts';

  override up(): void {
    this.addSql('create index notes_merge_request_user_idx on notes (merge_request_id) where not system');
    this.addSql('create index notes_merge_request_unresolved_idx on notes (merge_request_id) where resolvable and resolved_at is null');
  }
}
