/** The git command line as the e2e tests use it: a user's git, talking to the platform over HTTP. */
import { execFile } from 'node:child_process';

export interface GitResult {
  code: number;
  output: string;
}

/** Runs git in `cwd` as user "Dev", never prompting and ignoring the host's configuration (`home` stands in for HOME). */
export function runGitCli(args: string[], options: { cwd: string; home: string }): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      args,
      {
        cwd: options.cwd,
        env: {
          PATH: process.env.PATH,
          HOME: options.home,
          GIT_TERMINAL_PROMPT: '0',
          GIT_CONFIG_NOSYSTEM: '1',
          GIT_CONFIG_GLOBAL: '/dev/null',
          GIT_AUTHOR_NAME: 'Dev',
          GIT_AUTHOR_EMAIL: 'dev@example.com',
          GIT_COMMITTER_NAME: 'Dev',
          GIT_COMMITTER_EMAIL: 'dev@example.com',
        },
      },
      (error, stdout, stderr) => {
        if ((error as NodeJS.ErrnoException | null)?.code === 'ENOENT') {
          reject(new Error('git is not installed: apt-get install git'));
          return;
        }
        resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` });
      },
    );
  });
}

/** Git run in a directory (a test's work directory unless `cwd` says otherwise). */
export type Git = (args: string[], cwd?: string) => Promise<GitResult>;

/**
 * The git CLI with `home` as its HOME, run in `home` unless a call names another directory. First
 * runs `git --version`: a missing git fails the test, naming how to install it, rather than skipping it.
 */
export async function gitCli(home: string): Promise<Git> {
  const git: Git = (args, cwd = home) => runGitCli(args, { cwd, home });
  await git(['--version']);
  return git;
}

/** The clone URL of a project, with a personal access token as HTTP Basic password (anonymous without one). */
export function gitRemote(platformUrl: string, token: string | undefined, projectPath: string): string {
  const url = new URL(`${platformUrl}/${projectPath}.git`);
  if (token) {
    url.username = 'oauth2';
    url.password = token;
  }
  return url.toString();
}
