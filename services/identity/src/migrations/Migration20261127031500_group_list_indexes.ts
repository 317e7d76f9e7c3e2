import { Migration } from '@platform/db';

export class Migration20261127031500_group_list_indexes extends Migration {
  override name = 'Migration20261127031500_group_list_indexes';

  override up(): void {
    // Group lists hold only `kind = 'group'`, a few rows among every user's personal namespace: on
    // the indexes of all namespaces, root's capped count read the whole table (a million rows at a
    // million users) and a page walked users' rows to find groups. These hold groups alone: the
    // capped count (with or without a visibility) is an index-only scan, each order a walk of groups.
    this.addSql(`create index namespaces_groups_visibility_id_idx on namespaces (visibility, id) where kind = 'group'`);
    this.addSql(`create index namespaces_groups_id_idx on namespaces (id) where kind = 'group'`);
    this.addSql(`create index namespaces_groups_name_lower_idx on namespaces (lower(name), id) where kind = 'group'`);
    this.addSql(`create index namespaces_groups_path_lower_idx on namespaces (lower(path), id) where kind = 'group'`);
  }
}
