import { Migration } from '@platform/db';

export class Migration20261127033500_project_authorizations_probe_index extends Migration {
  override name = 'Migration20261127033500_project_authorizations_probe_index';

  override up(): void {
    // `projectVisibleTo` probes one (user, project) pair per row a page walks. In a generic plan the
    // estimate for `user_id = $n` is the average user's few rows, so the probe read the covering
    // (user_id, access_level) index by user alone and filtered every row of theirs; this index
    // answers the pair, its expiry and its level by key, from the index alone.
    this.addSql(
      'create index project_authorizations_probe_idx on project_authorizations (user_id, project_id, expires_at) include (access_level)',
    );
  }
}
