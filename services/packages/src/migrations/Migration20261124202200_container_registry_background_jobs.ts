import { Migration } from '@platform/db';

/** The container registry's jobs move to the service's job queue (`background_jobs`), waiting ones included. */
export class Migration20261124202200_container_registry_background_jobs extends Migration {
  override name = 'Migration20261124202200_container_registry_background_jobs';

  override up(): void {
    this.addSql(`insert into background_jobs (kind, payload, max_attempts, created_at)
      select case kind when 'cleanup_tags' then 'packages.container_repository.cleanup_tags' else 'packages.container_repository.delete' end,
             case kind when 'cleanup_tags' then jsonb_build_object('repositoryId', repository_id, 'rules', params, 'actor', actor)
                  else jsonb_build_object('repositoryId', repository_id, 'actor', actor) end,
             5, created_at
      from container_registry_jobs where state in ('pending', 'running') order by id`);
    this.addSql('drop table container_registry_jobs');
  }
}
