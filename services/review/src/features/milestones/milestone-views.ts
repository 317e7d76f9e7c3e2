import type { Milestone } from './milestone.entity.ts';

/** What the embedded view shows of a milestone: an entity, or the object a read model nests (ISO 8601 timestamps). */
export type EmbeddedMilestone = Pick<
  Milestone,
  'id' | 'iid' | 'projectId' | 'title' | 'description' | 'state' | 'startDate' | 'dueDate'
> & {
  createdAt: Date | string;
  updatedAt: Date | string;
};

/** The milestone as issues embed it (GitLab's issue schema allows no more than these). */
export function embeddedMilestoneView(milestone: EmbeddedMilestone) {
  return {
    id: milestone.id,
    iid: milestone.iid,
    project_id: milestone.projectId,
    title: milestone.title,
    description: milestone.description,
    state: milestone.state,
    created_at: new Date(milestone.createdAt).toISOString(),
    updated_at: new Date(milestone.updatedAt).toISOString(),
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
