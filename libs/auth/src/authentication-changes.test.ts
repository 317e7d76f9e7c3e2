import { describe, expect, it } from '@jest/globals';
import { AUTHENTICATION_CHANGED_HEADER, authenticationChanged, usersWithChangedAuthentication } from './authentication-changes.ts';

describe('authentication changes header', () => {
  it('names the users it was given', () => {
    const headers = authenticationChanged([7, 12]);
    expect(usersWithChangedAuthentication(headers[AUTHENTICATION_CHANGED_HEADER])).toEqual([7, 12]);
  });

  it('reads repeated headers and leaves out what is not a user id', () => {
    expect(usersWithChangedAuthentication(['3, 4', 'x,0,-1,2.5,', '9'])).toEqual([3, 4, 9]);
    expect(usersWithChangedAuthentication(undefined)).toEqual([]);
  });
});
