import { Migration } from '@platform/db';

export class Migration20261126205100_ssh_key_md5_fingerprints extends Migration {
  override name = 'Migration20261126205100_ssh_key_md5_fingerprints';

  override up(): void {
    // Administrators look keys up by either fingerprint (`GET /keys?fingerprint=`); SHA256 is unique already.
    this.addSql('create index ssh_keys_fingerprint_md5_index on ssh_keys (fingerprint_md5)');
  }
}
