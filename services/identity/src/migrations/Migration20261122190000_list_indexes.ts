import { Migration } from '@platform/db';

/**
 * Indexes for what the user list offers and had none for: substring search on name and username,
 * external users, and each order with the id that breaks its ties (replacing single-column ones).
 */
export class Migration20261122190000_list_indexes extends Migration {
  override name = 'Migration20261122190000_list_indexes';

  override up(): void {
    this.addSql('create index users_name_trgm_idx on users using gin (name gin_trgm_ops)');
    this.addSql('create index users_username_trgm_idx on users using gin (username gin_trgm_ops)');
    this.addSql('create index users_external_idx on users (id) where external');
    for (const column of ['name', 'username', 'created_at', 'updated_at']) {
      this.addSql(`create index users_${column}_id_idx on users (${column}, id)`);
      this.addSql(`drop index users_${column}_idx`);
    }
  }
}
