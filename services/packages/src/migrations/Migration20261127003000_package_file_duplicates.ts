import { Migration } from '@platform/db';

/**
 * A package may hold several files of one name (a generic package uploaded to twice keeps both,
 * as GitLab does); lookups by name take the newest.
 */
export class Migration20261127003000_package_file_duplicates extends Migration {
  override name = 'Migration20261127003000_package_file_duplicates';

  override up(): void {
    this.addSql('drop index package_files_name_idx');
    this.addSql('create index package_files_name_idx on package_files (package_id, file_name, id)');
  }
}
