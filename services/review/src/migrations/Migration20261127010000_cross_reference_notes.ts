import { Migration } from '@platform/db';

/**
 * Cross-reference notes ("mentioned in merge request !3") name the merge request or issue that
 * mentioned theirs: who may read it may see the note, and an issue's related merge requests are
 * found through them.
 */
export class Migration20261127010000_cross_reference_notes extends Migration {
  override name = 'Migration20261127010000_cross_reference_notes';

  override up(): void {
    this.addSql(`alter table notes
      add column mentioned_in_type text check (mentioned_in_type in ('MergeRequest', 'Issue')),
      add column mentioned_in_id bigint`);
  }
}
