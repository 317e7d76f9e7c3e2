import { isoOf, type Timestamp } from '../core/timestamps.ts';
import type { Milestone } from './milestone.entity.ts';

/** What the embedded view shows of a milestone: an entity, or the object a read model nests (ISO 8601 timestamps). */
export type EmbeddedMilestone = Pick<
  Milestone,
  'id' | 'iid' | 'projectId' | 'title' | 'description' | 'state' | 'startDate' | 'dueDate'
> & {
  createdAt: Timestamp;
  updatedAt: Timestamp;
  /** A group milestone's group (a project's has none). */
  groupId?: number | null | undefined;
};

/** The milestone as issues embed it (GitLab's issue schema allows no more than these). */
export function embeddedMilestoneView(milestone: EmbeddedMilestone) {
  return {
    id: milestone.id,
    iid: milestone.iid,
    // GitLab shows `project_id` of a project's milestone and `group_id` of a group's.
    ...(milestone.groupId ? { group_id: milestone.groupId } : { project_id: milestone.projectId }),
    title: milestone.title,
    description: milestone.description,
    state: milestone.state,
    created_at: isoOf(milestone.createdAt),
    updated_at: isoOf(milestone.updatedAt),
    due_date: milestone.dueDate ?? null,
    start_date: milestone.startDate ?? null,
  };
}

/**
 * GitLab's `Milestone` entity (`milestone.json`); `expired` only means something for a dated
 * milestone. `parent` is the web address of the project or group whose milestone it is.
 */
export function milestoneView(milestone: Milestone, parent: { webUrl: string }, today = new Date().toISOString().slice(0, 10)) {
  return {
    ...embeddedMilestoneView(milestone),
    expired: milestone.dueDate ? milestone.dueDate < today : null,
    web_url: `${parent.webUrl}/-/milestones/${milestone.iid}`,
  };
}

/**
 * Where a milestone's pages are for a project that uses it: the project's own, or the group's
 * (`/groups/<full path>`; the project's path names its groups in the order of `namespaceIds`).
 */
export function milestoneParentPages(
  milestone: { groupId?: number | null | undefined },
  project: { webUrl: string; pathWithNamespace: string; namespaceIds: number[] },
): { webUrl: string } {
  const depth = milestone.groupId ? project.namespaceIds.indexOf(milestone.groupId) : -1;
  if (depth < 0) return project;
  const base = project.webUrl.slice(0, project.webUrl.length - project.pathWithNamespace.length - 1);
  return {
    webUrl: `${base}/groups/${project.pathWithNamespace
      .split('/')
      .slice(0, depth + 1)
      .join('/')}`,
  };
}
