import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { InputError } from '@platform/errors';
import { dateParam, integerList, params, parseParams, queryValues } from './params.ts';

const schema = z.object({
  name: z.string().max(5),
  count: params.integer().optional(),
  active: params.boolean().optional(),
  state: z.enum(['opened', 'closed']).optional(),
  since: params.datetime().optional(),
  id: params.idOrPath().optional(),
});

function failure(input: unknown): string {
  try {
    parseParams(schema, input);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as Error).message;
  }
  throw new Error('expected a failure');
}

describe('parseParams', () => {
  it('accepts query-string spellings of integers, booleans and dates', () => {
    expect(parseParams(schema, { name: 'a', count: '12', active: 'false', since: '2026-01-02' })).toEqual({
      name: 'a',
      count: 12,
      active: false,
      since: new Date('2026-01-02T00:00:00.000Z'),
    });
  });

  it('tells a project id from a URL-encoded full path', () => {
    expect(parseParams(schema, { name: 'a', id: '42' }).id).toBe(42);
    expect(parseParams(schema, { name: 'a', id: 'group/sub/project' }).id).toBe('group/sub/project');
  });

  it('words failures the way Grape does', () => {
    expect(failure({})).toBe('name is missing');
    expect(failure({ name: 'abcdef' })).toBe('name is too long (maximum is 5 characters)');
    expect(failure({ name: 'a', count: 'many', active: 'perhaps' })).toBe('count is invalid, active is invalid');
    expect(failure({ name: 'a', state: 'merged' })).toBe('state does not have a valid value');
    expect(failure({ name: 'a', since: 'yesterday' })).toBe('since is invalid');
    expect(() => parseParams(z.object({ namespace: params.idOrPath() }), {})).toThrow('namespace is missing');
  });

  it('reads integer lists in each spelling Grape accepts', () => {
    const schema = z.object({ ids: integerList() });
    expect(parseParams(schema, { ids: '1,2' })).toEqual({ ids: [1, 2] });
    expect(parseParams(schema, { ids: ['3', '4'] })).toEqual({ ids: [3, 4] });
    expect(parseParams(schema, { ids: 5 })).toEqual({ ids: [5] });
    expect(() => parseParams(schema, { ids: '1,a' })).toThrow('ids is invalid');
    expect(() => parseParams(schema, { ids: ['1', 'a'] })).toThrow('ids[1] is invalid');
  });

  it("reads booleans in all of Grape's spellings, in any case", () => {
    for (const spelling of ['true', 'True', 'TRUE', '1', 'yes', 'Y', 't', 'on', 'On']) {
      expect(parseParams(schema, { name: 'a', active: spelling }).active).toBe(true);
    }
    for (const spelling of ['false', 'False', '0', 'no', 'N', 'f', 'off', 'OFF']) {
      expect(parseParams(schema, { name: 'a', active: spelling }).active).toBe(false);
    }
    expect(failure({ name: 'a', active: 'maybe' })).toBe('active is invalid');
  });

  it('reads integer and string arrays in their bracket, comma and JSON forms', () => {
    const lists = z.object({ ids: params.integerList(), topics: params.stringList() });
    expect(parseParams(lists, { ids: ['1', '2'], topics: ['a', 'b'] })).toEqual({ ids: [1, 2], topics: ['a', 'b'] });
    expect(parseParams(lists, { ids: '1, 2', topics: 'a,b' })).toEqual({ ids: [1, 2], topics: ['a', 'b'] });
    expect(parseParams(lists, { ids: [1, 2], topics: ['a'] })).toEqual({ ids: [1, 2], topics: ['a'] });
    expect(() => parseParams(lists, { ids: '1,x', topics: 'a' })).toThrow('ids is invalid');
  });
});

describe('dates', () => {
  it('accepts real calendar days only', () => {
    const schema = z.object({ expires_at: dateParam() });
    expect(parseParams(schema, { expires_at: '2024-02-29' })).toEqual({ expires_at: '2024-02-29' });
    expect(parseParams(schema, { expires_at: '2020-01-01T00:00:00Z' })).toEqual({ expires_at: '2020-01-01' });
    expect(parseParams(schema, { expires_at: '2020-01-31T23:30:00.000+02:00' })).toEqual({ expires_at: '2020-01-31' });
    for (const bad of ['2023-02-30', '2023-13-01', '20230101', 'soon', '2023-02-30T00:00:00Z', '2020-01-01Tnoon']) {
      expect(() => parseParams(schema, { expires_at: bad })).toThrow('expires_at is invalid');
    }
  });
});

describe('queryValues', () => {
  it('reads every value of a repeated query parameter, in order', () => {
    const req = { originalUrl: '/jwt/auth?service=registry&scope=repository%3Aa%3Apull&scope=repository:b:push+pull' };
    expect(queryValues(req, 'scope')).toEqual(['repository:a:pull', 'repository:b:push pull']);
    expect(queryValues(req, 'service')).toEqual(['registry']);
    expect(queryValues(req, 'account')).toEqual([]);
    expect(queryValues({ originalUrl: '/jwt/auth' }, 'scope')).toEqual([]);
  });
});
