import { Migration } from '@platform/db';

/**
 * Scoped npm packages' files take the name GitLab gives them, the scope included
 * (`kit-1.0.0.tgz` becomes `@acme/kit-1.0.0.tgz`); the registry still serves the old name.
 */
export class Migration20261126173000_scoped_npm_file_names extends Migration {
  override name = 'Migration20261126173000_scoped_npm_file_names';

  override up(): void {
    this.addSql(`update package_files f set file_name = p.name || '-' || p.version || '.tgz'
      from packages p
      where p.id = f.package_id and p.package_type = 'npm' and starts_with(p.name, '@')
        and f.file_name = split_part(p.name, '/', 2) || '-' || p.version || '.tgz'`);
  }
}
