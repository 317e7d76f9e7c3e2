import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Flags every process is started with besides its `start` script's, as the images' CMDs carry them. */
export const COMMON_NODE_FLAGS: readonly string[] = ['--disable-warning=TimeoutNegativeWarning'];

export interface StartCommand {
  /** Variables the script sets before `node` (`MALLOC_ARENA_MAX=2 node ...`): the images set them with ENV. */
  env: Record<string, string>;
  /** What follows `node`: its flags and the entry point. */
  args: string[];
}

/**
 * How a deployable package starts, read from its `package.json` `start` script, the one place
 * its runtime settings (malloc and V8 memory bounds, docs/read-path.md) are written: `npm start`
 * and the benchmarks run exactly this, and deploy/deploy-files.test.ts holds each image's ENV and
 * CMD to it. The script is `[NAME=value ...] node <args>`, nothing a shell would expand.
 */
export function startCommandOf(packageDir: string): StartCommand {
  const file = path.join(packageDir, 'package.json');
  const script = (JSON.parse(readFileSync(file, 'utf8')) as { scripts?: { start?: string } }).scripts?.start;
  if (script === undefined) throw new Error(`${file}: no start script`);
  return parseStartScript(script, file);
}

/** `[NAME=value ...] node <args>` as the variables it sets and node's arguments; `source` names it in errors. */
export function parseStartScript(script: string, source: string): StartCommand {
  const words = script.trim().split(/\s+/);
  const env: Record<string, string> = {};
  let index = 0;
  for (; index < words.length; index += 1) {
    const assignment = /^([A-Z_][A-Z0-9_]*)=(\S*)$/.exec(words[index] ?? '');
    if (!assignment) break;
    env[assignment[1] as string] = assignment[2] as string;
  }
  const args = words.slice(index + 1);
  if (words[index] !== 'node' || args.length === 0 || words.some((word) => /["'`$\\;&|<>]/.test(word))) {
    throw new Error(`${source}: start script "${script}" is not "[NAME=value ...] node <args>"`);
  }
  return { env, args };
}
