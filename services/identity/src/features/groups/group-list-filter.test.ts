import { describe, expect, it } from '@jest/globals';
import type { Viewer } from '../access/access-sql.ts';
import { groupListFilter } from './groups-service.ts';

const user: Viewer = { kind: 'user', userId: 7, username: 'grace', isAdmin: false, external: false };
const admin: Viewer = { kind: 'user', userId: 1, username: 'root', isAdmin: true, external: false };
const anonymous: Viewer = { kind: 'anonymous' };

describe('GET /groups precedence', () => {
  it('lists only related groups to users unless all_available, and everything to administrators unless not', () => {
    expect(groupListFilter(user, {})).toEqual({ relatedOnly: true });
    expect(groupListFilter(user, { all_available: true })).toEqual({});
    expect(groupListFilter(admin, {})).toEqual({});
    expect(groupListFilter(admin, { all_available: false })).toEqual({ relatedOnly: true });
    expect(groupListFilter(anonymous, { all_available: false })).toEqual({});
  });

  it('lets owned win over min_access_level, and both over all_available', () => {
    expect(groupListFilter(user, { owned: true, min_access_level: 30, all_available: true })).toEqual({ ownedBy: 7 });
    expect(groupListFilter(user, { min_access_level: 30, all_available: false })).toEqual({ minAccessLevel: 30 });
    expect(groupListFilter(anonymous, { owned: true })).toEqual({ ownedBy: 0 });
  });

  it('keeps custom attribute filters for administrators', () => {
    expect(groupListFilter(admin, { custom_attributes: { tier: 'gold' }, search: 'a', skip_groups: [3], top_level_only: true })).toEqual({
      customAttributes: { tier: 'gold' },
      search: 'a',
      skipIds: [3],
      topLevelOnly: true,
    });
    expect(groupListFilter(user, { custom_attributes: { tier: 'gold' }, all_available: true })).toEqual({});
  });
});
