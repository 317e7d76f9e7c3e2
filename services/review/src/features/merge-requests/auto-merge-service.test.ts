import { describe, expect, it } from '@jest/globals';
import { ConflictError, MethodNotAllowedError, NotAcceptableError, NotFoundError, UnauthorizedError } from '@platform/errors';
import { mergeErrorOf } from './auto-merge-service.ts';
import type { MergeRequest } from './merge-request.entity.ts';

const behind = { mergeStatus: 'can_be_merged', fastForwardPossible: false } as MergeRequest;
const conflicting = { mergeStatus: 'cannot_be_merged', fastForwardPossible: false } as MergeRequest;

describe("the merge error a refused queued merge's abort names", () => {
  it("words each refusal as GitLab's merge service does", () => {
    const merging = { mergeMethod: 'merge' as const };
    expect(mergeErrorOf(new UnauthorizedError(), { project: merging, mergeRequest: conflicting })).toBe(
      'You are not allowed to merge this merge request',
    );
    expect(mergeErrorOf(new NotFoundError('Project'), { project: null, mergeRequest: conflicting })).toBe(
      'You are not allowed to merge this merge request',
    );
    expect(mergeErrorOf(new ConflictError('SHA does not match HEAD of source branch'), { project: merging, mergeRequest: behind })).toBe(
      'Branch has been updated since the merge was requested. Please review the changes.',
    );
    expect(mergeErrorOf(new NotAcceptableError('Branch cannot be merged'), { project: { mergeMethod: 'ff' }, mergeRequest: behind })).toBe(
      'Only fast-forward merge is allowed for your project. Please update your source branch',
    );
    expect(mergeErrorOf(new NotAcceptableError('Branch cannot be merged'), { project: merging, mergeRequest: conflicting })).toBe(
      'Merge request is not mergeable',
    );
    expect(mergeErrorOf(new MethodNotAllowedError(), { project: merging, mergeRequest: behind })).toBe('Merge request is not mergeable');
  });
});
