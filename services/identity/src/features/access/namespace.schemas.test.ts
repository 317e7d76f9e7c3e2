import { describe, expect, it } from '@jest/globals';
import { isValidName, isValidPath, pathFromName } from './namespace.schemas.ts';

describe('namespace names and paths', () => {
  it('accepts GitLab paths and refuses the rest', () => {
    for (const path of ['acme', 'my-group', 'a.b_c', '_x']) expect(isValidPath(path)).toBe(true);
    for (const path of ['-lead', 'trail.', 'repo.git', 'feed.atom', 'has space', 'sla/sh', '']) expect(isValidPath(path)).toBe(false);
  });

  it('accepts GitLab names with spaces, parentheses and emoji', () => {
    for (const name of ['Acme Corp', 'Tools (beta)', 'Ünïcode', '🚀 Rockets', 'C++']) expect(isValidName(name)).toBe(true);
    for (const name of ['-dash first', ' space first', 'semi;colon', '']) expect(isValidName(name)).toBe(false);
  });

  it('derives a valid path from a name', () => {
    expect(pathFromName('My Great Project!')).toBe('my-great-project');
    expect(pathFromName('Ünïcode Tools')).toBe('unicode-tools');
    expect(isValidPath(pathFromName('..Weird -- Name..'))).toBe(true);
  });
});
