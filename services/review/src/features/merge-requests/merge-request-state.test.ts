import { describe, expect, it } from '@jest/globals';
import { MethodNotAllowedError } from '@platform/errors';
import type { MergeRequest } from './merge-request.entity.ts';
import { close, markMerged, mergeRefusal, reopen } from './merge-request-state.ts';

const at = new Date('2026-11-26T12:00:00Z');

function mergeRequest(changes: Partial<MergeRequest> = {}): MergeRequest {
  return {
    id: 1,
    iid: 1,
    projectId: 10,
    sourceProjectId: 10,
    state: 'opened',
    draft: false,
    mergeStatus: 'can_be_merged',
    closedAt: null,
    closedById: null,
    updatedAt: new Date('2026-01-01T00:00:00Z'),
    ...changes,
  } as MergeRequest;
}

describe('the merge request state machine', () => {
  it('closes an open merge request, by whom and when', () => {
    const open = mergeRequest();
    expect(close(open, { closedById: 7, at })).toBe(true);
    expect(open).toMatchObject({ state: 'closed', closedById: 7, closedAt: at, updatedAt: at });
  });

  it('closes nothing that is not open', () => {
    for (const state of ['closed', 'merged']) {
      const other = mergeRequest({ state });
      expect(close(other, { closedById: 7, at })).toBe(false);
      expect(other).toEqual(mergeRequest({ state }));
    }
  });

  it('reopens a closed merge request, whose merge status is unknown again', () => {
    const closed = mergeRequest({ state: 'closed', closedById: 7, closedAt: at });
    expect(reopen(closed, { at })).toBe(true);
    expect(closed).toMatchObject({ state: 'opened', closedById: null, closedAt: null, mergeStatus: 'unchecked', updatedAt: at });
  });

  it('reopens nothing open or merged: merged is final', () => {
    for (const state of ['opened', 'merged']) {
      const other = mergeRequest({ state });
      expect(reopen(other, { at })).toBe(false);
      expect(other.state).toBe(state);
    }
  });

  it('merges only open merge requests that are no draft (405 otherwise)', () => {
    expect(mergeRefusal(mergeRequest())).toBeNull();
    for (const refused of [mergeRequest({ draft: true }), mergeRequest({ state: 'closed' }), mergeRequest({ state: 'merged' })]) {
      expect(mergeRefusal(refused)).toEqual(new MethodNotAllowedError());
    }
  });

  it('records a merge with its merger, head and merge commit', () => {
    const open = mergeRequest({ mergeStatus: 'unchecked' });
    markMerged(open, { mergedById: 3, at, headSha: 'abc', mergeCommitSha: 'def' });
    expect(open).toMatchObject({
      state: 'merged',
      mergeStatus: 'can_be_merged',
      mergedById: 3,
      mergedAt: at,
      headSha: 'abc',
      mergeCommitSha: 'def',
    });
  });
});
