import { Migration } from '@platform/db';

export class Migration20261124133000_approvals extends Migration {
  override name = 'Migration20261124133000_approvals';

  override up(): void {
    this.addSql(`create table approval_settings (
      project_id bigint primary key,
      approvals_before_merge integer not null default 0,
      reset_approvals_on_push boolean not null default true,
      disable_overriding_approvers_per_merge_request boolean not null default false,
      merge_requests_author_approval boolean not null default false,
      merge_requests_disable_committers_approval boolean not null default false,
      require_password_to_approve boolean not null default false,
      approver_ids bigint[] not null default '{}',
      approver_group_ids bigint[] not null default '{}',
      updated_at timestamptz not null
    )`);
    this.addSql(`create table merge_request_approval_settings (
      merge_request_id bigint primary key references merge_requests (id) on delete cascade,
      approvals_before_merge integer,
      approver_ids bigint[],
      approver_group_ids bigint[],
      updated_at timestamptz not null
    )`);
    this.addSql(`create table approval_rules (
      id bigserial primary key,
      project_id bigint not null,
      merge_request_id bigint references merge_requests (id) on delete cascade,
      name text not null,
      rule_type text not null check (rule_type in ('regular', 'any_approver', 'code_owner', 'report_approver')),
      approvals_required integer not null check (approvals_required >= 0),
      user_ids bigint[] not null default '{}',
      group_ids bigint[] not null default '{}',
      protected_branch_ids bigint[] not null default '{}',
      source_rule_id bigint references approval_rules (id) on delete set null,
      section text,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql(`create unique index approval_rules_project_name on approval_rules (project_id, name) where merge_request_id is null`);
    this.addSql(
      `create unique index approval_rules_merge_request_name on approval_rules (merge_request_id, section, name) nulls not distinct where merge_request_id is not null`,
    );
    this.addSql(`create index approval_rules_merge_request on approval_rules (merge_request_id)`);
    this.addSql(`create table approvals (
      id bigserial primary key,
      merge_request_id bigint not null references merge_requests (id) on delete cascade,
      user_id bigint not null,
      sha text not null,
      created_at timestamptz not null,
      unique (merge_request_id, user_id)
    )`);
  }
}
