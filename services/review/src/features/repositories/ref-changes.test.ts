import { describe, expect, it } from '@jest/globals';
import { ZERO_SHA } from './git-repository.ts';
import { firstDefaultBranch, refChanges } from './ref-changes.ts';

const a = 'a'.repeat(40);
const b = 'b'.repeat(40);

describe('refChanges', () => {
  it('lists created, moved and deleted refs by name, and nothing that stayed', () => {
    const before = new Map([
      ['refs/heads/main', a],
      ['refs/heads/old', a],
      ['refs/tags/v1', a],
    ]);
    const after = new Map([
      ['refs/heads/main', b],
      ['refs/heads/new', b],
      ['refs/tags/v1', a],
    ]);
    expect(refChanges(before, after)).toEqual([
      { ref: 'refs/heads/main', before: a, after: b },
      { ref: 'refs/heads/new', before: ZERO_SHA, after: b },
      { ref: 'refs/heads/old', before: a, after: ZERO_SHA },
    ]);
  });
});

describe('firstDefaultBranch', () => {
  it("keeps HEAD's branch when the first push creates it", () => {
    const after = new Map([
      ['refs/heads/feature', a],
      ['refs/heads/main', a],
    ]);
    expect(firstDefaultBranch({ before: new Map(), after, headBranch: 'main' })).toBe('main');
  });

  it('takes the first branch created when HEAD names another', () => {
    const after = new Map([
      ['refs/heads/trunk', a],
      ['refs/tags/v1', a],
    ]);
    expect(firstDefaultBranch({ before: new Map([['refs/tags/v0', b]]), after, headBranch: 'main' })).toBe('trunk');
  });

  it('changes nothing once the repository has a branch, or while it has none', () => {
    const before = new Map([['refs/heads/main', a]]);
    expect(firstDefaultBranch({ before, after: new Map([...before, ['refs/heads/x', b]]), headBranch: 'main' })).toBeUndefined();
    expect(firstDefaultBranch({ before: new Map(), after: new Map([['refs/tags/v1', a]]), headBranch: 'main' })).toBeUndefined();
  });
});
