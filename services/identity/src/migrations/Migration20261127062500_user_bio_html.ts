import { Migration } from '@platform/db';
import { renderMarkdown } from '@platform/http/markdown';

/**
 * `users.bio_html`: the bio rendered to HTML when it is written (the entity renders it on every
 * write), as GitLab caches it, so that PostgreSQL can build the user views' JSON (`bio_html` is
 * in every view but the basic one) without a Markdown renderer. Existing bios are rendered here.
 */
export class Migration20261127062500_user_bio_html extends Migration {
  override name = 'Migration20261127062500_user_bio_html';

  override async up(): Promise<void> {
    this.addSql(`alter table users add column bio_html text not null default ''`);
    const written = (await this.execute(`select id, bio from users where bio <> ''`)) as Array<{ id: number; bio: string }>;
    for (const { id, bio } of written) {
      this.addSql(`update users set bio_html = '${renderMarkdown(bio).replaceAll("'", "''")}' where id = ${Number(id)}`);
    }
  }
}
