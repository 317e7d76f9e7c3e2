import { Migration } from '@platform/db';

export class Migration20261124173700_merge_request_deployments extends Migration {
  override name = 'Migration20261124173700_merge_request_deployments';

  override up(): void {
    this.addSql(`create table merge_request_deployments (
      id bigserial primary key,
      merge_request_id bigint not null,
      project_id bigint not null,
      deployment_id bigint not null,
      environment_name text not null,
      deployed_at timestamptz not null,
      constraint merge_request_deployments_once unique (merge_request_id, deployment_id)
    )`);
    // The lists filter by environment and by when the deployment finished.
    this.addSql('create index merge_request_deployments_environment on merge_request_deployments (environment_name, deployed_at)');
    this.addSql('create index merge_request_deployments_deployed_at on merge_request_deployments (deployed_at)');
  }
}
