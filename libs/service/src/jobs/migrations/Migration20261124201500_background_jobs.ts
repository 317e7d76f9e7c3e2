import { Migration } from '@platform/db';

/** The job queue every service's runner claims from. */
export class Migration20261124201500_background_jobs extends Migration {
  override up(): void {
    this.addSql(`create table background_jobs (
      id bigserial primary key,
      kind text not null,
      payload jsonb not null,
      recurring boolean not null default false,
      state text not null default 'pending' check (state in ('pending', 'running', 'failed')),
      attempts integer not null default 0,
      max_attempts integer not null,
      run_at timestamptz not null default now(),
      locked_until timestamptz,
      locked_by uuid,
      last_error text,
      created_at timestamptz not null default now()
    )`);
    // What a claim looks at: jobs due, and running ones whose lease may have run out.
    this.addSql("create index background_jobs_due_idx on background_jobs (run_at, id) where state in ('pending', 'running')");
    // One row per schedule, however many replicas register it.
    this.addSql('create unique index background_jobs_schedule_idx on background_jobs (kind) where recurring');
  }
}
