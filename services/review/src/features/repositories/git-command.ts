import { execFile } from 'node:child_process';

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
 * Runs git with `args` (never through a shell) and resolves with its standard output. A non-zero
 * exit rejects with GitCommandError, unless `allowedExitCodes` lists it (then `exitCode` tells).
 */
export function runGit(
  args: string[],
  options: { cwd?: string; allowedExitCodes?: number[]; env?: Record<string, string> } = {},
): Promise<{ stdout: string; exitCode: number }> {
  return new Promise((resolve, reject) => {
    execFile(
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
  });
}
