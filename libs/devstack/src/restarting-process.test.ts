import { afterEach, describe, expect, it } from '@jest/globals';
import { spawnRestarting, type RestartingProcess } from './restarting-process.ts';

let child: RestartingProcess | undefined;

afterEach(async () => {
  await child?.stop(1000);
});

/** A process that crashes at once, restarted under `policy`; resolves with the first `count` restart messages. */
async function crashLoop(policy: { initialDelayMs: number; maxDelayMs: number; stableAfterMs: number }, count: number) {
  const messages: string[] = [];
  await new Promise<void>((resolve) => {
    child = spawnRestarting({
      name: 'crasher',
      command: process.execPath,
      args: ['-e', 'process.exit(3)'],
      policy,
      onRestart: (message) => {
        messages.push(message);
        if (messages.length === count) resolve();
      },
    });
    child.supervise();
  });
  return messages;
}

describe('spawnRestarting', () => {
  it('restarts a crashing process after delays that double up to the cap, and says so', async () => {
    const messages = await crashLoop({ initialDelayMs: 20, maxDelayMs: 80, stableAfterMs: 60_000 }, 5);
    expect(messages).toEqual([20, 40, 80, 80, 80].map((delay) => `crasher exited (code 3); restarting in ${delay} ms`));
  });

  it('starts again from the shortest delay after a run that lasted', async () => {
    // Every run counts as one that lasted.
    const messages = await crashLoop({ initialDelayMs: 20, maxDelayMs: 80, stableAfterMs: 0 }, 3);
    expect(messages).toEqual(Array(3).fill('crasher exited (code 3); restarting in 20 ms'));
  });

  it('does not restart a process that exits before it is supervised (a failed start)', async () => {
    const messages: string[] = [];
    // onExit runs just before a restart would be decided, in the same callback.
    await new Promise<void>((resolve) => {
      child = spawnRestarting({
        name: 'once',
        command: process.execPath,
        args: ['-e', 'process.exit(3)'],
        onRestart: (message) => messages.push(message),
        onExit: () => setImmediate(resolve),
      });
    });
    expect(messages).toEqual([]);
    expect(child?.isDead()).toBe(true);
    expect(child?.restarts()).toBe(0);
  });
});
