import { Migration } from '@platform/db';

/** Generic packages join npm and Maven in the package store. */
export class Migration20261126220300_generic_packages extends Migration {
  override name = 'Migration20261126220300_generic_packages';

  override up(): void {
    this.addSql('alter table packages drop constraint packages_package_type_check');
    this.addSql("alter table packages add constraint packages_package_type_check check (package_type in ('npm', 'maven', 'generic'))");
  }
}
