import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import type { ConfigKey } from '@platform/config';
import {
  README,
  TABLE_END,
  TABLE_START,
  readProcessConfigs,
  renderConfigTable,
  undescribedKeys,
  withTable,
  type ProcessConfig,
} from './config-table.ts';

describe("the README's configuration table", () => {
  it('describes every key of every config schema', async () => {
    expect(undescribedKeys(await readProcessConfigs())).toEqual([]);
  });

  it('is the one the config schemas give (`npm run docs:config` rewrites it)', async () => {
    const readme = readFileSync(README, 'utf8');
    const current = readme.slice(readme.indexOf(TABLE_START) + TABLE_START.length, readme.indexOf(TABLE_END)).trim();
    expect(current).toBe(renderConfigTable(await readProcessConfigs()));
  });
});

describe('renderConfigTable', () => {
  const key = (name: string, fields: Partial<ConfigKey> = {}): ConfigKey => ({
    name,
    need: 'optional',
    default: undefined,
    description: `about ${name}`,
    ...fields,
  });
  const service = (name: string, keys: ConfigKey[]): ProcessConfig => ({ name, keys });
  const common = (name: string) => [
    key('SECRET', { need: 'required' }),
    key('GROUP', { default: name }),
    key('HTTP_PORT', { default: name === 'a' ? 3001 : 3002 }),
  ];
  const rows = (processes: ProcessConfig[]) => renderConfigTable(processes).split('\n').slice(2);

  it('names who reads each key, its default and whether deployments set it, and merges keys that mean the same', () => {
    const processes = [
      service('gateway', [
        key('SECRET', { need: 'required' }),
        key('A_URL', { need: 'set', default: ['http://127.0.0.1:1'], description: 'where it is' }),
        key('B_URL', { need: 'set', default: ['http://127.0.0.1:2'], description: 'where it is' }),
        key('PEER', { need: 'set', default: 'localhost:9' }),
      ]),
      service('a', [...common('a'), key('PEER', { need: 'set', default: 'localhost:9' }), key('LIST', { default: [] })]),
      service('b', [...common('b'), key('PEER', { need: 'set', default: 'localhost:9' }), key('PREFIX', { default: '' })]),
      service('c', [...common('c'), key('TOKEN', { description: 'a token | or none' })]),
    ];
    expect(rows(processes)).toEqual([
      '| `SECRET` | all | **required** | about SECRET |',
      '| `A_URL`, `B_URL` | gateway | http://127.0.0.1:1, http://127.0.0.1:2; deployments set it | where it is |',
      '| `PEER` | gateway, a, b | localhost:9; deployments set it | about PEER |',
      "| `GROUP` | services | the service's name | about GROUP |",
      '| `HTTP_PORT` | services | a: 3001, b: 3002, c: 3002 | about HTTP_PORT |',
      '| `LIST` | a | none | about LIST |',
      '| `PREFIX` | b | empty | about PREFIX |',
      '| `TOKEN` | c | unset | a token \\| or none |',
    ]);
  });

  it('says "services but" when all services but one or two read a key', () => {
    const names = ['a', 'b', 'c', 'd', 'e'];
    const processes = names.map((name) => service(name, name === 'a' ? [] : [key('ADDRESS', { need: 'set', default: '127.0.0.1:1' })]));
    expect(rows(processes)).toEqual(['| `ADDRESS` | services but a | 127.0.0.1:1; deployments set it | about ADDRESS |']);
  });

  it('refuses a key without a description, naming it', () => {
    expect(() => renderConfigTable([service('a', [key('X'), key('Y', { description: undefined })])])).toThrow(/describe these.*a: Y/);
  });
});

describe('withTable', () => {
  it('replaces what lies between the markers, and refuses a README without them', () => {
    const readme = `intro\n${TABLE_START}\nold\n${TABLE_END}\noutro\n`;
    expect(withTable(readme, 'new')).toBe(`intro\n${TABLE_START}\nnew\n${TABLE_END}\noutro\n`);
    expect(() => withTable('no table', 'new')).toThrow(/lacks the markers/);
  });
});
