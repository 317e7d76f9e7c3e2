import { execFile, spawn } from 'node:child_process';
import { PassThrough, type Readable } from 'node:stream';

/** What a missing git binary is reported as: the service cannot work without it. */
export const GIT_MISSING = 'git is not installed (apt-get install git)';

export class GitCommandError extends Error {
  override name = 'GitCommandError';
  readonly exitCode: number | null;
  readonly stderr: string;
  constructor(options: { args: string[]; exitCode: number | null; stderr: string }) {
    super(`git ${options.args[0] ?? ''} failed (${options.exitCode ?? 'signal'}): ${options.stderr.trim()}`);
    this.exitCode = options.exitCode;
    this.stderr = options.stderr;
  }
}

/** The environment git runs with: never prompts, never reads the host's global configuration. */
export function gitEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    ...extra,
  };
}

/**
 * Runs git with `args` (never through a shell), `input` on its standard input, and resolves with its standard output. A non-zero
 * exit rejects with GitCommandError, unless `allowedExitCodes` lists it (then `exitCode` tells).
 */
export function runGit(
  args: string[],
  options: { cwd?: string; allowedExitCodes?: number[]; env?: Record<string, string>; input?: string } = {},
): Promise<{ stdout: string; exitCode: number }> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      args,
      { cwd: options.cwd, env: gitEnvironment(options.env), maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (!error) {
          resolve({ stdout, exitCode: 0 });
          return;
        }
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
          reject(new Error(GIT_MISSING));
          return;
        }
        const exitCode = typeof error.code === 'number' ? error.code : null;
        if (exitCode !== null && options.allowedExitCodes?.includes(exitCode)) resolve({ stdout, exitCode });
        else reject(new GitCommandError({ args, exitCode, stderr }));
      },
    );
    child.stdin?.on('error', () => undefined).end(options.input);
  });
}

/** How much of a streamed command's standard error is kept for its GitCommandError. */
const STDERR_KEPT = 16 * 1024;

/**
 * Starts `command` (never through a shell) and hands over its standard output as a stream, for
 * answers too large to hold in memory (archives, blobs, long listings). The stream ends once the
 * command exited with 0 (or one of `allowedExitCodes`) and errors with GitCommandError otherwise;
 * destroying it (the client went away, or the reader has read enough) kills the command.
 * `stdin`, when given, is piped into the command (a compressor fed by git).
 */
export function streamCommand(
  command: string,
  args: string[],
  options: { cwd?: string; allowedExitCodes?: number[]; stdin?: Readable } = {},
): Readable {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: gitEnvironment(),
    stdio: [options.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  const output = new PassThrough();
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    if (stderr.length < STDERR_KEPT) stderr += chunk;
  });
  if (options.stdin && child.stdin) {
    const input = options.stdin;
    input.pipe(child.stdin);
    // The producer's failure is the output's failure; a consumer that stops early stops the producer too.
    input.on('error', (error) => output.destroy(error));
    child.stdin.on('error', () => input.destroy());
    output.on('close', () => input.destroy());
  }
  child.stdout?.pipe(output, { end: false });
  child.on('error', (error: NodeJS.ErrnoException) =>
    output.destroy(error.code === 'ENOENT' ? new Error(`${command} is not installed`) : error),
  );
  child.on('close', (exitCode) => {
    if (output.destroyed) return;
    if (exitCode === 0 || (exitCode !== null && options.allowedExitCodes?.includes(exitCode))) output.end();
    else output.destroy(new GitCommandError({ args: [command, ...args], exitCode, stderr }));
  });
  output.on('close', () => {
    if (child.exitCode === null && child.signalCode === null) child.kill();
  });
  return output;
}

/** `git` with `args`, streamed: see streamCommand. */
export function streamGit(args: string[], options: { allowedExitCodes?: number[] } = {}): Readable {
  return streamCommand('git', args, options);
}
