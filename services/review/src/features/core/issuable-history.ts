import type { AuthenticatedCaller } from '@platform/auth';
import type { EventActor } from '@platform/events';

/** A state a merge request or an issue was put in. */
export type IssuableTransition = 'closed' | 'reopened' | 'merged';

/** A merge request or an issue as its history sees it, after a change. */
export interface Issuable {
  id: number;
  projectId: number;
  iid: number;
  title: string;
  authorId: number;
  state: string;
  milestoneId?: number | null | undefined;
  labels: string[];
}

/**
 * A title and description as written, and as they were before (none when created): what they
 * mention anew is cross-referenced on the mentioned, if their author may read it (GitLab's
 * `create_new_cross_references!`).
 */
export interface IssuableMentions {
  text: string;
  previousText?: string | undefined;
  author: AuthenticatedCaller;
}

/** The text of a merge request or an issue that may mention others: its title and description. */
export function mentioningText(issuable: { title: string; description: string | null }): string {
  return `${issuable.title}\n${issuable.description ?? ''}`;
}

/** A change of a merge request or an issue, by a user. */
export interface IssuableChange {
  type: 'MergeRequest' | 'Issue';
  /** As it is after the change. */
  issuable: Issuable;
  /** The state the change put it in, when it closed, reopened or merged it. */
  transition?: IssuableTransition | undefined;
  /** The title before the change, when the change gave it another. */
  previousTitle?: string | undefined;
  descriptionChanged?: boolean | undefined;
  /** What the change wrote that may mention other issues and merge requests, when it wrote a title or description. */
  mentions?: IssuableMentions | undefined;
  actor: EventActor;
  at: Date;
}

/**
 * Writes what a change means to the history of a merge request or an issue (GitLab's system notes
 * and resource state, milestone and label events), in the caller's transaction: the one of the
 * change, so that whoever reads the history once the change is answered sees it, as in GitLab.
 * Called once the change is written, whose row lock makes concurrent changes of one merge request
 * or issue wait for each other (ADR 10).
 */
export type IssuableHistory = (change: IssuableChange) => Promise<void>;
