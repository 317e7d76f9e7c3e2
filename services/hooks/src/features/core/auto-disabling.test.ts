import { describe, expect, it } from '@jest/globals';
import { afterFailure, afterSuccess, alertStatus, type FailureState } from './auto-disabling.ts';

const now = new Date('2026-01-01T00:00:00Z');
const later = (ms: number) => new Date(now.getTime() + ms);

function failTimes(times: number, state: FailureState = { recentFailures: 0, disabledUntil: null }, at = now): FailureState {
  let current = state;
  for (let i = 0; i < times; i++) current = afterFailure('ProjectHook', current, at);
  return current;
}

describe('auto-disabling of failing hooks', () => {
  it('keeps a hook executable through three failures and disables it for a minute at the fourth', () => {
    const three = failTimes(3);
    expect(three).toEqual({ recentFailures: 3, disabledUntil: null });
    expect(alertStatus('ProjectHook', three, now)).toBe('executable');
    const four = failTimes(1, three);
    expect(four).toEqual({ recentFailures: 4, disabledUntil: later(60_000) });
    expect(alertStatus('ProjectHook', four, now)).toBe('temporarily_disabled');
    expect(alertStatus('ProjectHook', four, later(60_001))).toBe('executable');
  });

  it('ignores failures while disabled and doubles the period after each failure once it runs again', () => {
    const four = failTimes(4);
    expect(afterFailure('ProjectHook', four, later(30_000))).toEqual(four);
    const five = afterFailure('ProjectHook', four, later(61_000));
    expect(five).toEqual({ recentFailures: 5, disabledUntil: later(61_000 + 120_000) });
  });

  it('disables a hook for good after forty failures, never longer than a day in between', () => {
    let state: FailureState = { recentFailures: 38, disabledUntil: null };
    state = afterFailure('ProjectHook', state, now);
    expect(state.disabledUntil).toEqual(later(24 * 60 * 60_000));
    state = afterFailure('ProjectHook', state, later(25 * 60 * 60_000));
    expect(state.recentFailures).toBe(40);
    expect(alertStatus('ProjectHook', state, later(100 * 24 * 60 * 60_000))).toBe('disabled');
  });

  it('enables a hook again after a success, and never disables system hooks', () => {
    expect(afterSuccess()).toEqual({ recentFailures: 0, disabledUntil: null });
    const system = afterFailure('SystemHook', { recentFailures: 10, disabledUntil: null }, now);
    expect(alertStatus('SystemHook', system, now)).toBe('executable');
  });
});
