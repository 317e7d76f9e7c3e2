import type { Milestone } from '../milestones/milestone.entity.ts';
import type { MergeRequest } from './merge-request.entity.ts';

/** What other features keep about merge requests that their views show. */
export interface MergeRequestFacts {
  userNotesCount: number;
  /** No resolvable thread on it is unresolved. */
  blockingDiscussionsResolved: boolean;
  upvotes: number;
  downvotes: number;
  /** Whether the user the views are for is subscribed. */
  subscribed: boolean;
  milestone: Milestone | null;
}

/** What a merge request nothing was kept about shows. */
export const NO_FACTS: MergeRequestFacts = {
  userNotesCount: 0,
  blockingDiscussionsResolved: true,
  upvotes: 0,
  downvotes: 0,
  subscribed: false,
  milestone: null,
};

/** One feature's part of the facts of `mergeRequests`, as `userId` sees them (null for nobody in particular). */
export type FactsSource = (mergeRequests: MergeRequest[], userId: number | null) => Promise<Map<number, Partial<MergeRequestFacts>>>;

/** The facts of `mergeRequests` by merge request id, every source's part together. */
export type FactsOf = (mergeRequests: MergeRequest[], userId: number | null) => Promise<Map<number, MergeRequestFacts>>;

/** The merge requests `userId` reacted to with the emoji `name`, or with any emoji. */
export type ReactionLookup = (reaction: { userId: number; name?: string | undefined }) => Promise<number[]>;

/** The facts every source knows of merge requests; those none knows are zeros. */
export function factsFrom(sources: FactsSource[]): FactsOf {
  return async (mergeRequests, userId) => {
    const parts = await Promise.all(sources.map((source) => source(mergeRequests, userId)));
    return new Map(
      mergeRequests.map((mergeRequest) => [
        mergeRequest.id,
        Object.assign({}, NO_FACTS, ...parts.map((part) => part.get(mergeRequest.id) ?? {})) as MergeRequestFacts,
      ]),
    );
  };
}
