import type { Milestone } from './milestone.entity.ts';

/** The milestone as issues embed it (GitLab's issue schema allows no more than these). */
export function embeddedMilestoneView(milestone: Milestone) {
  return {
    id: milestone.id,
    iid: milestone.iid,
    project_id: milestone.projectId,
    title: milestone.title,
    description: milestone.description,
    state: milestone.state,
    created_at: milestone.createdAt.toISOString(),
    updated_at: milestone.updatedAt.toISOString(),
    due_date: milestone.dueDate ?? null,
    start_date: milestone.startDate ?? null,
  };
}

/** GitLab's `Milestone` entity (`milestone.json`); `expired` only means something for a dated milestone. */
export function milestoneView(milestone: Milestone, project: { webUrl: string }, today = new Date().toISOString().slice(0, 10)) {
  return {
    ...embeddedMilestoneView(milestone),
    expired: milestone.dueDate ? milestone.dueDate < today : null,
    web_url: `${project.webUrl}/-/milestones/${milestone.iid}`,
  };
}
