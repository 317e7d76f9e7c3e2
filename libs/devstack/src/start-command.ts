import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

export interface StartCommand {
  /** Variables the script sets before `node` (`MALLOC_ARENA_MAX=2 node ...`): the images set them with ENV. */
  env: Record<string, string>;
  /** What follows `node`: its flags and the entry point. */
  args: string[];
}

/**
 * How a deployable package starts, read from its `package.json` `start` script, the one place
 * its runtime settings (malloc and V8 memory bounds, the compile cache: docs/read-path.md) are
 * written: `npm start` and the benchmarks run exactly this, and deploy/deploy-files.test.ts holds
 * each image's ENV, CMD and compile cache fill to it. The script is `[NAME=value ...] node <args>`, nothing a shell would expand.
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

/** The variable a start script names Node's compile cache directory with (relative to the package). */
const COMPILE_CACHE_VARIABLE = 'NODE_COMPILE_CACHE';

/**
 * Node's arguments that fill a start command's compile cache and exit without starting anything:
 * its flags and preloads, its entry imported rather than run (a `main.ts` starts its service only
 * as the entry, `import.meta.main`) and an empty script. The images run it at build time, as the
 * user the service runs as: the cache's directory is named after the uid.
 */
export function compileCacheFillArgs(start: StartCommand): string[] {
  const entry = start.args.at(-1) ?? '';
  return [...start.args.slice(0, -1), '--import', /^\.{0,2}\//.test(entry) ? entry : `./${entry}`, '--eval', ''];
}

/**
 * Fills the compile caches (`NODE_COMPILE_CACHE`) of these packages' start commands, so that the
 * processes started next find every module there, compile nothing and never load Node's
 * TypeScript stripper, whose WebAssembly is about 20 MB of each process's resident memory
 * (docs/read-path.md). One process per cache directory imports every
 * package's preloads and entry, so the libraries they share are compiled once; V8's flags are left
 * out, as neither the cache's directory nor V8's acceptance of its code depends on them.
 */
export async function fillCompileCaches(packageDirs: readonly string[]): Promise<void> {
  const importsByCache = new Map<string, Set<string>>();
  for (const dir of packageDirs) {
    const start = startCommandOf(dir);
    const cache = start.env[COMPILE_CACHE_VARIABLE];
    if (cache === undefined) continue;
    const resolve = createRequire(path.join(dir, 'package.json')).resolve;
    const imports = importsByCache.get(path.resolve(dir, cache)) ?? new Set<string>();
    start.args.forEach((arg, index) => {
      if (arg === '--import' && start.args[index + 1] !== undefined)
        imports.add(pathToFileURL(resolve(start.args[index + 1] as string)).href);
    });
    imports.add(pathToFileURL(path.resolve(dir, start.args.at(-1) as string)).href);
    importsByCache.set(path.resolve(dir, cache), imports);
  }
  await Promise.all(
    [...importsByCache].map(([cache, imports]) =>
      execFileAsync(process.execPath, [...[...imports].flatMap((url) => ['--import', url]), '--eval', ''], {
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', [COMPILE_CACHE_VARIABLE]: cache },
      }),
    ),
  );
}
