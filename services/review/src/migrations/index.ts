import type { MigrationObject } from '@platform/db';
import { Migration20261122190000_repositories } from './Migration20261122190000_repositories.ts';
import { Migration20261122210000_protected_branches } from './Migration20261122210000_protected_branches.ts';
import { Migration20261122213000_merge_requests } from './Migration20261122213000_merge_requests.ts';
import { Migration20261124133000_approvals } from './Migration20261124133000_approvals.ts';
import { Migration20261124143000_protected_branch_users_and_groups } from './Migration20261124143000_protected_branch_users_and_groups.ts';
import { Migration20261124161000_merge_request_fast_forward } from './Migration20261124161000_merge_request_fast_forward.ts';
import { Migration20261124170100_notes } from './Migration20261124170100_notes.ts';
import { Migration20261124170200_subscriptions } from './Migration20261124170200_subscriptions.ts';
import { Migration20261124170300_repository_storage_moves } from './Migration20261124170300_repository_storage_moves.ts';
import { Migration20261124171500_merge_request_approvals_before_merge } from './Migration20261124171500_merge_request_approvals_before_merge.ts';
import { Migration20261124172000_merge_request_rebase } from './Migration20261124172000_merge_request_rebase.ts';
import { Migration20261124173700_merge_request_deployments } from './Migration20261124173700_merge_request_deployments.ts';
import { Migration20261124180000_labels_and_milestones } from './Migration20261124180000_labels_and_milestones.ts';
import { Migration20261124180100_award_emoji } from './Migration20261124180100_award_emoji.ts';
import { Migration20261124180200_todos } from './Migration20261124180200_todos.ts';
import { Migration20261124180500_issues } from './Migration20261124180500_issues.ts';
import { Migration20261124202600_storage_move_jobs } from './Migration20261124202600_storage_move_jobs.ts';
import { Migration20261124203900_group_labels } from './Migration20261124203900_group_labels.ts';
import { Migration20261126190000_protected_tags } from './Migration20261126190000_protected_tags.ts';
import { Migration20261126210700_issue_links_and_label_subscriptions } from './Migration20261126210700_issue_links_and_label_subscriptions.ts';
import { Migration20261126211300_discussions } from './Migration20261126211300_discussions.ts';
import { Migration20261126211700_group_milestones } from './Migration20261126211700_group_milestones.ts';
import { Migration20261126212900_resource_state_events } from './Migration20261126212900_resource_state_events.ts';
import { Migration20261126213400_resource_milestone_events } from './Migration20261126213400_resource_milestone_events.ts';
import { Migration20261126214000_resource_label_events } from './Migration20261126214000_resource_label_events.ts';
import { Migration20261127010000_cross_reference_notes } from './Migration20261127010000_cross_reference_notes.ts';
import { Migration20261127032000_merge_request_note_counts } from './Migration20261127032000_merge_request_note_counts.ts';
import { Migration20261127040000_merge_requests_closing_issues } from './Migration20261127040000_merge_requests_closing_issues.ts';
import { Migration20261127040100_merge_requests_closing_issues_backfill } from './Migration20261127040100_merge_requests_closing_issues_backfill.ts';
import { Migration20261126213900_pipelines_and_auto_merges } from './Migration20261126213900_pipelines_and_auto_merges.ts';

/** Applied in this order; a landed migration is never edited, only followed by a new one. */
export const migrations: MigrationObject[] = [
  { name: 'Migration20261122190000_repositories', class: Migration20261122190000_repositories },
  { name: 'Migration20261122210000_protected_branches', class: Migration20261122210000_protected_branches },
  { name: 'Migration20261122213000_merge_requests', class: Migration20261122213000_merge_requests },
  { name: 'Migration20261124133000_approvals', class: Migration20261124133000_approvals },
  { name: 'Migration20261124143000_protected_branch_users_and_groups', class: Migration20261124143000_protected_branch_users_and_groups },
  { name: 'Migration20261124161000_merge_request_fast_forward', class: Migration20261124161000_merge_request_fast_forward },
  { name: 'Migration20261124170100_notes', class: Migration20261124170100_notes },
  { name: 'Migration20261124170200_subscriptions', class: Migration20261124170200_subscriptions },
  { name: 'Migration20261124170300_repository_storage_moves', class: Migration20261124170300_repository_storage_moves },
  {
    name: 'Migration20261124171500_merge_request_approvals_before_merge',
    class: Migration20261124171500_merge_request_approvals_before_merge,
  },
  { name: 'Migration20261124172000_merge_request_rebase', class: Migration20261124172000_merge_request_rebase },
  { name: 'Migration20261124173700_merge_request_deployments', class: Migration20261124173700_merge_request_deployments },
  { name: 'Migration20261124180000_labels_and_milestones', class: Migration20261124180000_labels_and_milestones },
  { name: 'Migration20261124180100_award_emoji', class: Migration20261124180100_award_emoji },
  { name: 'Migration20261124180200_todos', class: Migration20261124180200_todos },
  { name: 'Migration20261124180500_issues', class: Migration20261124180500_issues },
  { name: 'Migration20261124202600_storage_move_jobs', class: Migration20261124202600_storage_move_jobs },
  { name: 'Migration20261124203900_group_labels', class: Migration20261124203900_group_labels },
  { name: 'Migration20261126190000_protected_tags', class: Migration20261126190000_protected_tags },
  {
    name: 'Migration20261126210700_issue_links_and_label_subscriptions',
    class: Migration20261126210700_issue_links_and_label_subscriptions,
  },
  { name: 'Migration20261126211300_discussions', class: Migration20261126211300_discussions },
  { name: 'Migration20261126211700_group_milestones', class: Migration20261126211700_group_milestones },
  { name: 'Migration20261126212900_resource_state_events', class: Migration20261126212900_resource_state_events },
  { name: 'Migration20261126213400_resource_milestone_events', class: Migration20261126213400_resource_milestone_events },
  { name: 'Migration20261126213900_pipelines_and_auto_merges', class: Migration20261126213900_pipelines_and_auto_merges },
  { name: 'Migration20261126214000_resource_label_events', class: Migration20261126214000_resource_label_events },
  { name: 'Migration20261127010000_cross_reference_notes', class: Migration20261127010000_cross_reference_notes },
  { name: 'Migration20261127032000_merge_request_note_counts', class: Migration20261127032000_merge_request_note_counts },
  {
    name: 'Migration20261127040000_merge_requests_closing_issues',
    class: Migration20261127040000_merge_requests_closing_issues,
  },
  {
    name: 'Migration20261127040100_merge_requests_closing_issues_backfill',
    class: Migration20261127040100_merge_requests_closing_issues_backfill,
  },
];
