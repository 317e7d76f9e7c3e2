import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { compileCacheFillArgs, fillCompileCaches, parseStartScript, startCommandOf } from './start-command.ts';

const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');

describe('parseStartScript', () => {
  it('splits the variables set before node from node arguments', () => {
    expect(parseStartScript('MALLOC_ARENA_MAX=2 node --max-old-space-size=256 src/main.ts', 'x')).toEqual({
      env: { MALLOC_ARENA_MAX: '2' },
      args: ['--max-old-space-size=256', 'src/main.ts'],
    });
    expect(parseStartScript('node src/main.ts', 'x')).toEqual({ env: {}, args: ['src/main.ts'] });
  });

  it.each([
    ['another program', 'tsx src/main.ts'],
    ['node without an entry point', 'MALLOC_ARENA_MAX=2 node'],
    ['shell expansion', 'node --max-old-space-size=$HEAP src/main.ts'],
    ['a second command', 'node src/main.ts && echo done'],
    ['quoting', 'MALLOC_ARENA_MAX="2" node src/main.ts'],
  ])('refuses %s', (_label, script) => {
    expect(() => parseStartScript(script, 'gateway/package.json')).toThrow(/gateway\/package.json: start script/);
  });
});

describe('startCommandOf', () => {
  it("reads every deployable package's start script", () => {
    const dirs = ['gateway', ...readdirSync(path.join(REPO_ROOT, 'services')).map((name) => path.join('services', name))];
    for (const dir of dirs) {
      const start = startCommandOf(path.join(REPO_ROOT, dir));
      expect(start.args.at(-1)).toBe('src/main.ts');
      // One compile cache for the repository (.cache/ is git-ignored), filled by fillCompileCaches.
      expect(path.resolve(REPO_ROOT, dir, start.env.NODE_COMPILE_CACHE ?? '')).toBe(path.join(REPO_ROOT, '.cache', 'node-compile-cache'));
    }
  });
});

describe('the compile cache', () => {
  // A package as the deployables are: an ES module entry that starts only as the entry, a preload,
  // and a start script naming a compile cache. Its entry reports whether Node's TypeScript stripper
  // was loaded, and leaves a file behind whenever it ran.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'compile-cache-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(path.join(dir, 'src'));
  const script = 'NODE_COMPILE_CACHE=.cache/compile node --max-semi-space-size=8 --import ./src/preload.ts src/main.ts';
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module', scripts: { start: script } }));
  writeFileSync(path.join(dir, 'src', 'preload.ts'), 'export const preloaded: boolean = true;\n');
  writeFileSync(path.join(dir, 'src', 'answer.ts'), 'export const answer: number = 42;\n');
  writeFileSync(
    path.join(dir, 'src', 'main.ts'),
    [
      "import { writeFileSync } from 'node:fs';",
      "import { answer } from './answer.ts';",
      'if (import.meta.main) {',
      "  writeFileSync('ran', '');",
      "  const stripper: boolean = process.moduleLoadList.some((name) => name.includes('amaro'));",
      '  console.log(JSON.stringify({ answer, stripper }));',
      '}',
      '',
    ].join('\n'),
  );
  /** Runs the package as `startPlatform` launches it, with or without its start script's variables. */
  const run = (env: Record<string, string>) =>
    JSON.parse(
      execFileSync(process.execPath, startCommandOf(dir).args, {
        cwd: dir,
        env: { PATH: process.env.PATH ?? '', ...env },
        encoding: 'utf8',
      }),
    ) as { answer: number; stripper: boolean };

  it('is filled without running the entry, and a process started next loads no TypeScript stripper', async () => {
    expect(run({})).toEqual({ answer: 42, stripper: true });
    rmSync(path.join(dir, 'ran'));

    await fillCompileCaches([dir]);
    expect(existsSync(path.join(dir, 'ran'))).toBe(false);
    expect(readdirSync(path.join(dir, '.cache', 'compile')).length).toBeGreaterThan(0);
    expect(run(startCommandOf(dir).env)).toEqual({ answer: 42, stripper: false });
  });

  it('is filled in the images by the start command with its entry imported', () => {
    expect(compileCacheFillArgs(startCommandOf(dir))).toEqual([
      '--max-semi-space-size=8',
      '--import',
      './src/preload.ts',
      '--import',
      './src/main.ts',
      '--eval',
      '',
    ]);
  });
});
