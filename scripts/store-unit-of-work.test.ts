import { describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { ESLint } from 'eslint';

// ADR 9: the runtime forks the unit of work and the service opens the transaction; the lint rule keeps stores from doing either.
const root = path.resolve(import.meta.dirname, '..');
const eslint = new ESLint({ cwd: root });

const FORKING_STORE = `
export class PgThingStore {
  constructor(private readonly em: { fork(): { transactional(work: () => Promise<void>): Promise<void> } }) {}
  save(): Promise<void> {
    return this.em.fork().transactional(async () => undefined);
  }
}
`;

async function restrictedSyntax(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
  return (result?.messages ?? []).filter((message) => message.ruleId === 'no-restricted-syntax').map((message) => message.message);
}

describe('the store rule of eslint.config.js', () => {
  it('refuses em.fork() and .transactional( in a store', async () => {
    expect(await restrictedSyntax('services/example/src/features/things/things-store.ts', FORKING_STORE)).toEqual([
      'A store never opens a transaction: the service method does, with em.transactional (docs/adr/0009).',
      'A store never forks: it works in the unit of work the runtime opened (docs/adr/0009).',
    ]);
  });

  it('leaves services, which open the transactions, alone', async () => {
    expect(await restrictedSyntax('services/example/src/features/things/things-service.ts', FORKING_STORE)).toEqual([]);
  });

  it('passes every store in the repository', async () => {
    const results = await eslint.lintFiles(['services/*/src/**/*-store.ts']);
    const offending = results
      .filter((result) => result.messages.some((message) => message.ruleId === 'no-restricted-syntax'))
      .map((result) => path.relative(root, result.filePath));
    expect(results.length).toBeGreaterThan(0);
    expect(offending).toEqual([]);
  });
});
