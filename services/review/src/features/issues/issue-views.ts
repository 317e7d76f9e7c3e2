import { labelBasicView } from '../labels/label-views.ts';
import type { ListedLabel } from '../labels/labels-service.ts';
import { humanDuration, taskCompletionStatus } from '../core/merge-request-text.ts';
import type { UserSummary } from '../core/user-directory.ts';
import { embeddedMilestoneView } from '../milestones/milestone-views.ts';
import type { Milestone } from '../milestones/milestone.entity.ts';
import type { Issue } from './issue.entity.ts';

export interface IssueViewContext {
  project: { id: number; pathWithNamespace: string; webUrl: string };
  /** Where the API is served (`_links` are absolute). */
  baseUrl: string;
  users: Map<number, UserSummary>;
  milestones: Map<number, Milestone>;
  /** With `with_labels_details=true`: the project's labels by title, shown as objects. */
  labelDetails?: Map<string, ListedLabel> | undefined;
}

/** Every user issue views show, for one GetUsers call. */
export function issueUserIds(issues: Issue[]): number[] {
  return issues.flatMap((issue) => [issue.authorId, ...issue.assigneeIds, ...(issue.closedById ? [issue.closedById] : [])]);
}

/** GitLab's `Issue` entity (`issue.json`) for an issue of this platform's tracker. */
export function issueView(issue: Issue, context: IssueViewContext) {
  const assignees = issue.assigneeIds.flatMap((id) => {
    const user = context.users.get(id);
    return user ? [user] : [];
  });
  const milestone = issue.milestoneId === null || issue.milestoneId === undefined ? undefined : context.milestones.get(issue.milestoneId);
  const short = `#${issue.iid}`;
  const webUrl = `${context.project.webUrl}/-/issues/${issue.iid}`;
  const apiPath = `${context.baseUrl}/api/v4/projects/${context.project.id}`;
  const tasks = taskCompletionStatus(issue.description);
  const labelDetails = context.labelDetails;
  return {
    id: issue.id,
    iid: issue.iid,
    project_id: issue.projectId,
    title: issue.title,
    description: issue.description,
    state: issue.state,
    created_at: issue.createdAt.toISOString(),
    updated_at: issue.updatedAt.toISOString(),
    closed_at: issue.closedAt?.toISOString() ?? null,
    closed_by: issue.closedById ? (context.users.get(issue.closedById) ?? null) : null,
    labels: labelDetails
      ? issue.labels.flatMap((title) => {
          const label = labelDetails.get(title);
          return label ? [labelBasicView(label)] : [];
        })
      : issue.labels,
    milestone: milestone ? embeddedMilestoneView(milestone) : null,
    assignees,
    assignee: assignees[0] ?? null,
    author: context.users.get(issue.authorId) ?? null,
    type: 'ISSUE',
    issue_type: 'issue',
    user_notes_count: 0,
    merge_requests_count: 0,
    upvotes: 0,
    downvotes: 0,
    due_date: issue.dueDate ?? null,
    confidential: issue.confidential,
    discussion_locked: issue.discussionLocked ?? null,
    web_url: webUrl,
    time_stats: { time_estimate: 0, total_time_spent: 0, human_time_estimate: humanDuration(0), human_total_time_spent: humanDuration(0) },
    task_completion_status: tasks,
    has_tasks: tasks.count > 0,
    references: { short, relative: short, full: `${context.project.pathWithNamespace}${short}` },
    severity: 'UNKNOWN',
    moved_to_id: null,
    service_desk_reply_to: null,
    _links: {
      self: `${apiPath}/issues/${issue.iid}`,
      notes: `${apiPath}/issues/${issue.iid}/notes`,
      award_emoji: `${apiPath}/issues/${issue.iid}/award_emoji`,
      project: apiPath,
      closed_as_duplicate_of: null,
    },
  };
}
