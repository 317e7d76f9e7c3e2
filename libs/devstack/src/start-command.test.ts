import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { parseStartScript, startCommandOf } from './start-command.ts';

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
    }
  });
});
