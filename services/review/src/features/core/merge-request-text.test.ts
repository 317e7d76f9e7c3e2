import { describe, expect, it } from '@jest/globals';
import { humanDuration, isDraftTitle, parseHumanDuration, taskCompletionStatus } from './merge-request-text.ts';

describe('merge request text', () => {
  it.each([
    ['Draft: add login', true],
    ['[Draft] add login', true],
    ['(Draft) add login', true],
    ['WIP: add login', true],
    ['[WIP] add login', true],
    ['draft: lower case', true],
    ['Add draft mode', false],
    ['Drafting: no', false],
  ])('%s is a draft: %s', (title, draft) => {
    expect(isDraftTitle(title)).toBe(draft);
  });

  it('counts the task list of a description', () => {
    expect(taskCompletionStatus('- [ ] one\n- [x] two\n* [X] three\n1. [ ] four\nnot - [ ] a task')).toEqual({
      count: 4,
      completed_count: 2,
    });
    expect(taskCompletionStatus('')).toEqual({ count: 0, completed_count: 0 });
  });

  it("reads and writes GitLab's durations: a month is 4 weeks, a week 5 days, a day 8 hours", () => {
    expect(parseHumanDuration('1mo 2w 3d 4h 30m')).toBe(((4 * 5 + 2 * 5 + 3) * 8 + 4) * 3600 + 30 * 60);
    expect(parseHumanDuration('90m')).toBe(5400);
    expect(parseHumanDuration('-1h')).toBe(-3600);
    expect(parseHumanDuration('2')).toBe(7200);
    expect(parseHumanDuration('soon')).toBeUndefined();
    expect(parseHumanDuration('3 parsecs')).toBeUndefined();
    expect(parseHumanDuration('')).toBeUndefined();
    expect(humanDuration(((4 * 5 + 2 * 5 + 3) * 8 + 4) * 3600 + 30 * 60)).toBe('1mo 2w 3d 4h 30m');
    expect(humanDuration(5400)).toBe('1h 30m');
    expect(humanDuration(8 * 3600)).toBe('1d');
    expect(humanDuration(0)).toBeNull();
  });
});
