import { RefusedError } from '@platform/errors';
import type { CiStatus } from '../pipelines/pipeline.entity.ts';

/** The states an external CI may post, each reached by GitLab's job state machine events. */
export const POSTED_STATES = ['pending', 'running', 'success', 'failed', 'canceled', 'skipped'] as const;
export type PostedState = (typeof POSTED_STATES)[number];

/** GitLab's commit status state machine: each event and the statuses it leaves from. */
const EVENTS = {
  enqueue: { from: ['created', 'skipped'], to: 'pending' },
  run: { from: ['pending'], to: 'running' },
  success: { from: ['created', 'pending', 'running'], to: 'success' },
  drop: { from: ['created', 'pending', 'running'], to: 'failed' },
  cancel: { from: ['created', 'pending', 'running'], to: 'canceled' },
  skip: { from: ['created', 'pending'], to: 'skipped' },
} as const satisfies Record<string, { from: readonly CiStatus[]; to: CiStatus }>;

type StatusEvent = keyof typeof EVENTS;

/** The events the API fires for a posted state, in order; those marked `quiet` may not apply without failing (GitLab's `enqueue` before `run!`). */
const FIRED: Record<PostedState, Array<{ event: StatusEvent; quiet?: true }>> = {
  pending: [{ event: 'enqueue' }],
  running: [{ event: 'enqueue', quiet: true }, { event: 'run' }],
  success: [{ event: 'success' }],
  failed: [{ event: 'drop' }],
  canceled: [{ event: 'cancel' }],
  skipped: [{ event: 'skip' }],
};

/**
 * The status a commit status in `current` reaches when `state` is posted; GitLab's refusal (400,
 * its `StateMachines::InvalidTransition` message) when its state machine does not allow it.
 */
export function transition(current: CiStatus, state: PostedState): CiStatus {
  let status = current;
  for (const { event, quiet } of FIRED[state]) {
    const rule = EVENTS[event];
    if ((rule.from as readonly CiStatus[]).includes(status)) {
      status = rule.to;
    } else if (!quiet) {
      throw new RefusedError(`Cannot transition status via :${event} from :${status} (Reason(s): Status cannot transition via "${event}")`);
    }
  }
  return status;
}

/** A pipeline's status from its latest statuses' (GitLab's `Gitlab::Ci::Status::Composite`, nothing allowed to fail). */
export function compositeStatus(statuses: readonly CiStatus[]): CiStatus {
  const set = new Set(statuses);
  const onlyOf = (...allowed: CiStatus[]) => [...set].every((status) => allowed.includes(status));
  if (set.size === 0) return 'created';
  if (onlyOf('skipped')) return 'skipped';
  if (onlyOf('success', 'skipped')) return 'success';
  if (onlyOf('created')) return 'created';
  if (onlyOf('canceled', 'success', 'skipped')) return 'canceled';
  if (onlyOf('pending', 'created', 'skipped')) return 'pending';
  if (set.has('running') || set.has('pending')) return 'running';
  if (set.has('created')) return 'running';
  return 'failed';
}
