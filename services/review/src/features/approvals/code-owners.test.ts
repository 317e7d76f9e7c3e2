import { describe, expect, it } from '@jest/globals';
import { entriesOwning, matchesCodeOwnersPattern, parseCodeOwners } from './code-owners.ts';

describe('CODEOWNERS syntax', () => {
  it('reads entries, comments, escaped spaces, emails and sections with default owners and approval counts', () => {
    const entries = parseCodeOwners(
      [
        '# who owns what',
        '*.md @docs-team @ada',
        'path\\ with\\ spaces/ @grace # trailing comment',
        'unowned.txt',
        '[Backend][2] @backend',
        'app/',
        'app/models/ @ada dev@example.com',
        '^[Optional]',
        '*.js @frontend/leads',
      ].join('\n'),
    );
    expect(entries).toEqual([
      {
        pattern: '*.md',
        owners: [
          { kind: 'name', name: 'docs-team' },
          { kind: 'name', name: 'ada' },
        ],
        section: 'codeowners',
        optional: false,
        approvalsRequired: 1,
      },
      {
        pattern: 'path with spaces/',
        owners: [{ kind: 'name', name: 'grace' }],
        section: 'codeowners',
        optional: false,
        approvalsRequired: 1,
      },
      { pattern: 'unowned.txt', owners: [], section: 'codeowners', optional: false, approvalsRequired: 1 },
      { pattern: 'app/', owners: [{ kind: 'name', name: 'backend' }], section: 'Backend', optional: false, approvalsRequired: 2 },
      {
        pattern: 'app/models/',
        owners: [
          { kind: 'name', name: 'ada' },
          { kind: 'email', email: 'dev@example.com' },
        ],
        section: 'Backend',
        optional: false,
        approvalsRequired: 2,
      },
      { pattern: '*.js', owners: [{ kind: 'name', name: 'frontend/leads' }], section: 'Optional', optional: true, approvalsRequired: 1 },
    ]);
  });
});

describe('CODEOWNERS patterns', () => {
  it.each([
    ['*.md', 'README.md', true],
    ['*.md', 'docs/guide/intro.md', true],
    ['/README.md', 'README.md', true],
    ['/README.md', 'docs/README.md', false],
    ['docs/', 'docs/a/b.txt', true],
    ['docs/', 'src/docs.txt', false],
    ['/app/**/*.rb', 'app/models/user.rb', true],
    ['lib/*.ts', 'lib/a.ts', true],
    ['lib/*.ts', 'lib/deep/a.ts', false],
    ['*', 'anything/at/all.txt', true],
  ])('%s matches %s: %s', (pattern, path, expected) => {
    expect(matchesCodeOwnersPattern(pattern, path)).toBe(expected);
  });

  it('lets the last matching entry of each section win, and names each winner once', () => {
    const entries = parseCodeOwners(['* @everyone', '*.rb @rubyists', '[Docs]', 'docs/ @writers'].join('\n'));
    const owning = entriesOwning(entries, ['app/user.rb', 'app/other.rb', 'docs/index.md', 'Makefile']);
    expect(owning.map(({ entry, paths }) => [entry.section, entry.pattern, paths])).toEqual([
      ['codeowners', '*', ['docs/index.md', 'Makefile']],
      ['codeowners', '*.rb', ['app/user.rb', 'app/other.rb']],
      ['Docs', 'docs/', ['docs/index.md']],
    ]);
  });
});
