import { describe, expect, it } from '@jest/globals';
import { ScimFilterError } from './scim-errors.ts';
import { isWorkEmailPath, parseUserFilter } from './scim-filter.ts';

describe('parseUserFilter', () => {
  it('reads eq on id, externalId and userName; id and externalId both name the external UID', () => {
    expect(parseUserFilter('id eq "abc-1"')).toEqual({ attribute: 'externalId', value: 'abc-1' });
    expect(parseUserFilter('externalId eq "abc 2"')).toEqual({ attribute: 'externalId', value: 'abc 2' });
    expect(parseUserFilter('userName eq "jane@example.com"')).toEqual({ attribute: 'userName', value: 'jane@example.com' });
  });

  it('treats attribute names and operators case-insensitively and accepts the core schema URN', () => {
    expect(parseUserFilter('USERNAME EQ "jane"')).toEqual({ attribute: 'userName', value: 'jane' });
    expect(parseUserFilter('urn:ietf:params:scim:schemas:core:2.0:User:userName eq "jane"')).toEqual({
      attribute: 'userName',
      value: 'jane',
    });
  });

  it('keeps an unquoted number as an identifier', () => {
    expect(parseUserFilter('externalId eq 42')).toEqual({ attribute: 'externalId', value: '42' });
  });

  it.each([
    ['userName ne "jane"', /operator "ne"/],
    ['userName co "ja"', /operator "co"/],
    ['userName pr', /operator "pr"/],
    ['userName eq "a" and id eq "b"', /operator "and"/],
    ['not (userName eq "a")', /operator "not"/],
    ['displayName eq "Jane"', /attribute "displayName"/],
    ['emails[type eq "work"]', /operator "\[\]"/],
    ['active eq true', /attribute "active"/],
    ['userName eq true', /must be a string/],
    ['userName eq null', /must be a string/],
    ['userName eq', /not a valid SCIM filter/],
    ['userName eq "unterminated', /not a valid SCIM filter/],
    ['(userName eq "a"', /not a valid SCIM filter/],
  ])('refuses %s as an invalid filter', (filter, message) => {
    expect(() => parseUserFilter(filter)).toThrow(ScimFilterError);
    expect(() => parseUserFilter(filter)).toThrow(message);
  });
});

describe('isWorkEmailPath', () => {
  it('recognises the work and the primary address', () => {
    expect(isWorkEmailPath('emails[type eq "work"].value')).toBe(true);
    expect(isWorkEmailPath('emails[Type EQ "Work"].value')).toBe(true);
    expect(isWorkEmailPath('emails[primary eq true].value')).toBe(true);
  });

  it('refuses other addresses and other paths', () => {
    expect(isWorkEmailPath('emails[type eq "home"].value')).toBe(false);
    expect(isWorkEmailPath('emails[primary eq false].value')).toBe(false);
    expect(isWorkEmailPath('emails[type eq "work"].display')).toBe(false);
    expect(isWorkEmailPath('emails[type eq "work"')).toBe(false);
    expect(isWorkEmailPath('emails[type eq].value')).toBe(false);
    expect(isWorkEmailPath('userName')).toBe(false);
  });
});
