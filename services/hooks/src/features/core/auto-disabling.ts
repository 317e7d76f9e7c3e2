/**
 * GitLab's auto-disabling of failing project and group hooks (`WebHooks::AutoDisabling`): after
 * four consecutive failures a hook is disabled for a minute, then for twice as long after each
 * further failure (at most a day); after forty it is disabled for good. A success, or a
 * successful test, enables it again.
 */
import type { HookType } from './web-hook.entity.ts';

export const TEMPORARILY_DISABLED_FAILURE_THRESHOLD = 3;
export const PERMANENTLY_DISABLED_FAILURE_THRESHOLD = 39;
const INITIAL_BACKOFF_MS = 60_000;
const MAX_BACKOFF_MS = 24 * 60 * 60_000;

export interface FailureState {
  recentFailures: number;
  disabledUntil?: Date | null | undefined;
}

export type AlertStatus = 'executable' | 'temporarily_disabled' | 'disabled';

/** System hooks are never disabled. */
export function autoDisables(type: HookType): boolean {
  return type !== 'SystemHook';
}

export function alertStatus(type: HookType, state: FailureState, now: Date): AlertStatus {
  if (!autoDisables(type)) return 'executable';
  const { recentFailures, disabledUntil } = state;
  if (
    disabledUntil &&
    disabledUntil.getTime() >= now.getTime() &&
    recentFailures > TEMPORARILY_DISABLED_FAILURE_THRESHOLD &&
    recentFailures <= PERMANENTLY_DISABLED_FAILURE_THRESHOLD
  ) {
    return 'temporarily_disabled';
  }
  return recentFailures > PERMANENTLY_DISABLED_FAILURE_THRESHOLD ? 'disabled' : 'executable';
}

export function isExecutable(type: HookType, state: FailureState, now: Date): boolean {
  return alertStatus(type, state, now) === 'executable';
}

/** The state after a failed delivery; a hook already disabled stays as it is. */
export function afterFailure(type: HookType, state: FailureState, now: Date): FailureState {
  const unchanged = { recentFailures: state.recentFailures, disabledUntil: state.disabledUntil ?? null };
  if (!isExecutable(type, state, now) || !autoDisables(type)) return unchanged;
  const recentFailures = Math.min(Math.max(state.recentFailures + 1, 1), PERMANENTLY_DISABLED_FAILURE_THRESHOLD + 1);
  if (recentFailures <= TEMPORARILY_DISABLED_FAILURE_THRESHOLD) return { ...unchanged, recentFailures };
  const backoffCount = state.recentFailures - TEMPORARILY_DISABLED_FAILURE_THRESHOLD;
  const backoffMs = Math.min(Math.max(INITIAL_BACKOFF_MS * 2 ** backoffCount, INITIAL_BACKOFF_MS), MAX_BACKOFF_MS);
  return { recentFailures, disabledUntil: new Date(now.getTime() + backoffMs) };
}

/** The state after a successful delivery or test. */
export function afterSuccess(): FailureState {
  return { recentFailures: 0, disabledUntil: null };
}
