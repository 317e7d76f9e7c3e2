import { describe, expect, it } from '@jest/globals';
import { InputError } from '@platform/errors';
import { chooseEmail, looksLikeEmail, nameFrom, usernameFrom } from './scim-user-attributes.ts';

describe('usernameFrom', () => {
  it('keeps a valid username as it is', () => {
    expect(usernameFrom('jane.doe_2')).toBe('jane.doe_2');
  });

  it('takes the local part of an email address, as GitLab does', () => {
    expect(usernameFrom('jane.doe@example.com')).toBe('jane.doe');
  });

  it('drops characters a username cannot hold and the endings and starts it cannot have', () => {
    expect(usernameFrom('Jane Doe!')).toBe('JaneDoe');
    expect(usernameFrom('--jane.git.atom.')).toBe('jane');
  });

  it('refuses a userName with nothing left', () => {
    expect(() => usernameFrom('@example.com')).toThrow(InputError);
    expect(() => usernameFrom('...')).toThrow(InputError);
  });
});

describe('chooseEmail', () => {
  it('prefers the work address, then the primary one, then the first', () => {
    expect(
      chooseEmail([
        { value: 'p@x.io', primary: true },
        { type: 'Work', value: 'w@x.io' },
      ]),
    ).toBe('w@x.io');
    expect(
      chooseEmail([
        { type: 'home', value: 'h@x.io' },
        { value: 'p@x.io', primary: 'True' },
      ]),
    ).toBe('p@x.io');
    expect(chooseEmail([{ type: 'home', value: 'h@x.io' }])).toBe('h@x.io');
    expect(chooseEmail([])).toBeUndefined();
  });
});

describe('nameFrom', () => {
  it('prefers formatted, then joins the given and family names', () => {
    expect(nameFrom({ formatted: 'Jane Doe', givenName: 'J' })).toBe('Jane Doe');
    expect(nameFrom({ formatted: ' ', givenName: 'Jane', familyName: 'Doe' })).toBe('Jane Doe');
    expect(nameFrom({ familyName: 'Doe' })).toBe('Doe');
    expect(nameFrom({})).toBeUndefined();
  });
});

describe('looksLikeEmail', () => {
  it('tells an address from a username', () => {
    expect(looksLikeEmail('jane@example.com')).toBe(true);
    expect(looksLikeEmail('jane')).toBe(false);
  });
});
