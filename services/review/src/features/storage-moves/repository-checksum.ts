import { spawn } from 'node:child_process';
import { createHash, type Hash } from 'node:crypto';
import { gitEnvironment, GitCommandError, GIT_MISSING } from '../repositories/git-command.ts';

/** Streams what git prints into `hash`: an object listing can be larger than any buffer should be. */
function hashGitOutput(hash: Hash, gitDir: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['--git-dir', gitDir, ...args], { env: gitEnvironment(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => hash.update(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', (error: NodeJS.ErrnoException) => reject(error.code === 'ENOENT' ? new Error(GIT_MISSING) : error));
    child.on('close', (exitCode) => {
      if (exitCode === 0) resolve();
      else reject(new GitCommandError({ args, exitCode, stderr }));
    });
  });
}

/**
 * A digest of a repository's content: HEAD, every ref with the object it names, and every object
 * reachable from them (which git reads to list, so a missing or corrupt one fails). Two
 * repositories with the same digest hold the same history.
 */
export async function repositoryChecksum(gitDir: string): Promise<string> {
  const hash = createHash('sha256');
  await hashGitOutput(hash, gitDir, ['symbolic-ref', 'HEAD']);
  await hashGitOutput(hash, gitDir, ['for-each-ref', '--format=%(objectname) %(refname)']);
  await hashGitOutput(hash, gitDir, ['rev-list', '--objects', '--all']);
  return hash.digest('hex');
}
