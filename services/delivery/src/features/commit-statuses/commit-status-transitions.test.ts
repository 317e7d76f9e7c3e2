import { describe, expect, it } from '@jest/globals';
import { RefusedError } from '@platform/errors';
import { compositeStatus, transition } from './commit-status-transitions.ts';

describe('commit status transitions', () => {
  it('reaches every posted state from a new status', () => {
    for (const state of ['pending', 'running', 'success', 'failed', 'canceled', 'skipped'] as const) {
      expect(transition('created', state)).toBe(state);
    }
  });

  it('moves a pending status on, and a running one to a finish', () => {
    expect(transition('pending', 'running')).toBe('running');
    expect(transition('pending', 'skipped')).toBe('skipped');
    expect(transition('running', 'success')).toBe('success');
    expect(transition('running', 'failed')).toBe('failed');
    expect(transition('running', 'canceled')).toBe('canceled');
  });

  it("refuses what GitLab's state machine refuses, naming the event", () => {
    expect(() => transition('running', 'running')).toThrow(
      new RefusedError('Cannot transition status via :run from :running (Reason(s): Status cannot transition via "run")'),
    );
    expect(() => transition('pending', 'pending')).toThrow('Cannot transition status via :enqueue from :pending');
    expect(() => transition('running', 'pending')).toThrow('Cannot transition status via :enqueue from :running');
    expect(() => transition('running', 'skipped')).toThrow('Cannot transition status via :skip from :running');
  });
});

describe('a pipeline status from its statuses', () => {
  it('is the composite GitLab computes', () => {
    expect(compositeStatus([])).toBe('created');
    expect(compositeStatus(['skipped'])).toBe('skipped');
    expect(compositeStatus(['success', 'skipped'])).toBe('success');
    expect(compositeStatus(['pending', 'created'])).toBe('pending');
    expect(compositeStatus(['pending', 'success'])).toBe('running');
    expect(compositeStatus(['running', 'failed'])).toBe('running');
    expect(compositeStatus(['canceled', 'success'])).toBe('canceled');
    expect(compositeStatus(['failed', 'success'])).toBe('failed');
    expect(compositeStatus(['created', 'success'])).toBe('running');
  });
});
