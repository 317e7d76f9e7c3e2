import type { UserSummary } from '../core/user-directory.ts';
import { labelBasicView } from '../labels/label-views.ts';
import type { ListedLabel } from '../labels/labels-service.ts';
import type { Milestone } from '../milestones/milestone.entity.ts';
import { milestoneView } from '../milestones/milestone-views.ts';
import type { ResourceLabelEvent } from './resource-label-event.entity.ts';
import type { ResourceMilestoneEvent } from './resource-milestone-event.entity.ts';
import type { ResourceStateEvent } from './resource-state-event.entity.ts';

/** A resource state event as GitLab shows it. */
export function resourceStateEventView(event: ResourceStateEvent, users: Map<number, UserSummary>) {
  return {
    id: event.id,
    user: users.get(event.userId) ?? null,
    created_at: event.createdAt.toISOString(),
    resource_type: event.resourceType,
    resource_id: event.resourceId,
    state: event.state,
  };
}

/** A resource milestone event as GitLab shows it, with its milestone (null once the milestone is gone). */
export function resourceMilestoneEventView(
  event: ResourceMilestoneEvent,
  context: { users: Map<number, UserSummary>; milestones: Map<number, Milestone>; project: { webUrl: string } },
) {
  const milestone = context.milestones.get(event.milestoneId);
  return {
    id: event.id,
    user: context.users.get(event.userId) ?? null,
    created_at: event.createdAt.toISOString(),
    resource_type: event.resourceType,
    resource_id: event.resourceId,
    milestone: milestone ? milestoneView(milestone, context.project) : null,
    action: event.action,
    state: event.state,
  };
}

/** A resource label event as GitLab shows it, with its label (null once the project has no label of that title). */
export function resourceLabelEventView(
  event: ResourceLabelEvent,
  context: { users: Map<number, UserSummary>; labels: Map<string, ListedLabel> },
) {
  const label = context.labels.get(event.labelTitle);
  return {
    id: event.id,
    user: context.users.get(event.userId) ?? null,
    created_at: event.createdAt.toISOString(),
    resource_type: event.resourceType,
    resource_id: event.resourceId,
    label: label ? labelBasicView(label) : null,
    action: event.action,
  };
}
