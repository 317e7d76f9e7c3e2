import { describe, expect, it } from '@jest/globals';
import { parseParams } from '@platform/http';
import { z } from 'zod';
import { dateParam, integerList, isValidName, isValidPath, pathFromName } from './namespace.schemas.ts';

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

  it('reads integer lists in each spelling Grape accepts', () => {
    const schema = z.object({ ids: integerList() });
    expect(parseParams(schema, { ids: '1,2' })).toEqual({ ids: [1, 2] });
    expect(parseParams(schema, { ids: ['3', '4'] })).toEqual({ ids: [3, 4] });
    expect(parseParams(schema, { ids: 5 })).toEqual({ ids: [5] });
    expect(() => parseParams(schema, { ids: '1,a' })).toThrow('ids is invalid');
    expect(() => parseParams(schema, { ids: ['1', 'a'] })).toThrow('ids[1] is invalid');
  });
});

describe('dates', () => {
  it('accepts real calendar days only', () => {
    const schema = z.object({ expires_at: dateParam() });
    expect(parseParams(schema, { expires_at: '2024-02-29' })).toEqual({ expires_at: '2024-02-29' });
    for (const bad of ['2023-02-30', '2023-13-01', '20230101', 'soon']) {
      expect(() => parseParams(schema, { expires_at: bad })).toThrow('expires_at is invalid');
    }
  });
});
