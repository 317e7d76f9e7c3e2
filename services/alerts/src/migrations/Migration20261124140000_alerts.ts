import { Migration } from '@platform/db';

export class Migration20261124140000_alerts extends Migration {
  override name = 'Migration20261124140000_alerts';

  override up(): void {
    this.addSql(`create table alert_integrations (
      id bigserial primary key,
      project_id bigint not null,
      name text not null,
      integration_type text not null check (integration_type in ('http', 'prometheus')),
      active boolean not null,
      endpoint_identifier text not null,
      token_digest text not null,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql('create index alert_integrations_project_idx on alert_integrations (project_id, id)');
    this.addSql('create unique index alert_integrations_endpoint_idx on alert_integrations (project_id, endpoint_identifier)');
    // iids of alerts and incidents, counted per project; one row per project and kind, locked while a number is taken.
    this.addSql(`create table project_iids (
      project_id bigint not null,
      kind text not null check (kind in ('alert', 'incident')),
      last_iid integer not null,
      primary key (project_id, kind)
    )`);
    this.addSql(`create table alerts (
      id bigserial primary key,
      project_id bigint not null,
      iid integer not null,
      integration_id bigint,
      title text not null,
      description text,
      severity text not null check (severity in ('critical', 'high', 'medium', 'low', 'info', 'unknown')),
      status text not null check (status in ('triggered', 'acknowledged', 'resolved', 'ignored')),
      events integer not null,
      started_at timestamptz not null,
      ended_at timestamptz,
      fingerprint text not null,
      monitoring_tool text,
      service text,
      hosts jsonb not null,
      environment text,
      payload jsonb not null,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql('create unique index alerts_project_iid_idx on alerts (project_id, iid)');
    // Grouping and resolution look for the open alert of a fingerprint.
    this.addSql("create index alerts_open_fingerprint_idx on alerts (project_id, fingerprint) where status <> 'resolved'");
    this.addSql('create index alerts_project_status_idx on alerts (project_id, status, iid)');
    this.addSql(`create table incidents (
      id bigserial primary key,
      project_id bigint not null,
      iid integer not null,
      alert_id bigint not null references alerts (id) on delete cascade,
      title text not null,
      description text,
      severity text not null,
      state text not null check (state in ('opened', 'closed')),
      created_at timestamptz not null,
      updated_at timestamptz not null,
      closed_at timestamptz
    )`);
    this.addSql('create unique index incidents_project_iid_idx on incidents (project_id, iid)');
    this.addSql('create unique index incidents_alert_idx on incidents (alert_id)');
  }
}
