/**
 * The pre-receive hook: git runs it during a push, after the pack arrived and before any ref
 * moves, with one `<old> <new> <ref>` line per update on standard input and the push policy in
 * the environment. A refusal is written as `GitLab: <message>` (git shows it as a `remote:`
 * line) and exiting non-zero makes git refuse the whole push.
 */
import { execFile } from 'node:child_process';
import { PUSH_POLICY_VARIABLE, refusalOfUpdate, type PushPolicy } from './branch-protection.ts';

/** Whether `before` is not in `after`'s history; the new objects are visible through git's quarantine environment. */
function isForced(before: string, after: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    execFile('git', ['merge-base', '--is-ancestor', before, after], (error) => {
      if (!error) resolve(false);
      else if (error.code === 1) resolve(true);
      else reject(error);
    });
  });
}

async function readStandardInput(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function main(): Promise<number> {
  const policyText = process.env[PUSH_POLICY_VARIABLE];
  // Pushes the service did not describe (none arrive other than through it) change nothing here.
  if (!policyText) return 0;
  const policy = JSON.parse(policyText) as PushPolicy;
  const updates = (await readStandardInput())
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [before = '', after = '', ref = ''] = line.split(' ');
      return { before, after, ref };
    });
  for (const update of updates) {
    const refusal = await refusalOfUpdate({ update, policy, isForced: () => isForced(update.before, update.after) });
    if (refusal) {
      process.stderr.write(`GitLab: ${refusal}\n`);
      return 1;
    }
  }
  return 0;
}

process.exitCode = await main();
