import { Migration } from '@platform/db';

export class Migration20261124203900_group_labels extends Migration {
  override name = 'Migration20261124203900_group_labels';

  override up(): void {
    // Group labels draw their ids from the project labels' sequence: a label id names one label of either kind.
    this.addSql(`create table group_labels (
      id bigint primary key default nextval('labels_id_seq'),
      group_id bigint not null,
      title text not null,
      color text not null,
      description text,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      unique (group_id, title)
    )`);
  }
}
