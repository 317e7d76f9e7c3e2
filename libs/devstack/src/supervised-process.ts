import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';

export interface SupervisedProcess {
  pid: number;
  /** True once the process exited or failed to start. */
  isDead(): boolean;
  /** The last lines it printed, for error messages. */
  lastOutput(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when it has exited. */
  stop(graceMs?: number): Promise<void>;
}

const PDEATHSIG = '/usr/bin/setpriv';

/**
 * Spawns a child that cannot outlive this process: on Linux, setpriv's parent-death signal
 * kills it even when this process dies without running exit handlers (SIGKILL, a killed jest
 * worker); elsewhere an 'exit' handler does. setpriv execs the command, so the pid is the child's.
 */
export function spawnSupervised(options: {
  command: string;
  args: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  onLine?: (line: string) => void;
  /** Runs synchronously when this process exits while the child still runs. */
  onAbandoned?: () => void;
  /** Runs once the child has exited, however it ended. */
  onExit?: (exit: { code: number | null; signal: NodeJS.Signals | null }) => void;
}): SupervisedProcess {
  const spawnOptions: SpawnOptions = { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] };
  const child: ChildProcess =
    process.platform === 'linux' && existsSync(PDEATHSIG)
      ? spawn(PDEATHSIG, ['--pdeathsig', 'SIGKILL', '--', options.command, ...options.args], spawnOptions)
      : spawn(options.command, options.args, spawnOptions);

  const lastLines: string[] = [];
  let spawnError: Error | undefined;
  child.on('error', (error) => (spawnError = error));
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    // Always drain the pipes, or the child blocks once a pipe buffer fills up.
    createInterface({ input: stream }).on('line', (line) => {
      lastLines.push(line);
      if (lastLines.length > 60) lastLines.shift();
      options.onLine?.(line);
    });
  }
  const exited = new Promise<void>((resolve) =>
    child.once('close', (code, signal) => {
      resolve();
      options.onExit?.({ code, signal });
    }),
  );
  const isDead = () => spawnError !== undefined || child.exitCode !== null || child.signalCode !== null;
  const killOnExit = () => {
    child.kill('SIGKILL');
    options.onAbandoned?.();
  };
  process.on('exit', killOnExit);

  let stopping: Promise<void> | undefined;
  return {
    pid: child.pid ?? -1,
    isDead,
    lastOutput: () => spawnError?.message ?? lastLines.join('\n'),
    stop: (graceMs = 20_000) =>
      (stopping ??= (async () => {
        if (!isDead()) {
          child.kill('SIGTERM');
          const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
          await exited;
          clearTimeout(timer);
        }
        process.off('exit', killOnExit);
      })()),
  };
}
