import { describe, expect, it } from '@jest/globals';
import { scimPage } from './scim-paging.ts';

describe('scimPage', () => {
  it('starts at 1 with 20 by default', () => {
    expect(scimPage({})).toEqual({ startIndex: 1, count: 20 });
  });

  it('treats a start below 1 as 1', () => {
    expect(scimPage({ startIndex: 0 })).toEqual({ startIndex: 1, count: 20 });
    expect(scimPage({ startIndex: -5, count: 3 })).toEqual({ startIndex: 1, count: 3 });
  });

  it('defaults a count below 1 and caps one above 100', () => {
    expect(scimPage({ startIndex: 7, count: 0 })).toEqual({ startIndex: 7, count: 20 });
    expect(scimPage({ count: -1 })).toEqual({ startIndex: 1, count: 20 });
    expect(scimPage({ count: 1000 })).toEqual({ startIndex: 1, count: 100 });
  });
});
