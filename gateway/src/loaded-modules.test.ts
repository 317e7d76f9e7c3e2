import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';

// Every module a fresh process loads with the gateway's entry, as the URLs Node's loader saw.
function modulesLoadedByGateway(): string[] {
  const entry = pathToFileURL(`${import.meta.dirname}/main.ts`).href;
  const script = `
    import { registerHooks } from 'node:module';
    const loaded = [];
    registerHooks({ load: (url, context, nextLoad) => (loaded.push(url), nextLoad(url, context)) });
    await import(${JSON.stringify(entry)});
    process.stdout.write(JSON.stringify(loaded));
  `;
  const output = execFileSync(process.execPath, ['--input-type=module', '--eval', script], { encoding: 'utf8' });
  return JSON.parse(output) as string[];
}

describe('the gateway process', () => {
  // The gateway has no database and renders no Markdown: these libraries would only add to the heap every collection walks.
  it('does not load the database or Markdown libraries', () => {
    const loaded = modulesLoadedByGateway();
    expect(loaded.some((url) => url.includes('/libs/http/'))).toBe(true);
    const unused = ['/libs/db/', ...['@mikro-orm', 'kysely', 'pg', 'markdown-it'].map((name) => `/node_modules/${name}/`)];
    expect(loaded.filter((url) => unused.some((path) => url.includes(path)))).toEqual([]);
  });
});
