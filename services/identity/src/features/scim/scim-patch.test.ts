import { describe, expect, it } from '@jest/globals';
import { InputError } from '@platform/errors';
import { changesFromOperations } from './scim-patch.ts';

describe('changesFromOperations', () => {
  it('maps the spec fields on Replace and Add, whatever the case of op', () => {
    expect(
      changesFromOperations([
        { op: 'Replace', path: 'name.formatted', value: ' Jane Doe ' },
        { op: 'replace', path: 'emails[type eq "work"].value', value: 'jane@example.com' },
        { op: 'Add', path: 'userName', value: 'jane' },
        { op: 'add', path: 'externalId', value: 'ext-2' },
        { op: 'REPLACE', path: 'active', value: false },
      ]),
    ).toEqual({ name: 'Jane Doe', email: 'jane@example.com', username: 'jane', externUid: 'ext-2', active: false });
  });

  it('maps id like externalId and displayName like name.formatted', () => {
    expect(changesFromOperations([{ op: 'Replace', path: 'id', value: 'ext-3' }])).toEqual({ externUid: 'ext-3' });
    expect(changesFromOperations([{ op: 'Replace', path: 'displayName', value: 'J. Doe' }])).toEqual({ name: 'J. Doe' });
  });

  it('reads a path-less operation as an object of attributes, as Okta and Entra ID send them', () => {
    expect(changesFromOperations([{ op: 'replace', value: { active: 'False', 'name.formatted': 'Jane' } }])).toEqual({
      active: false,
      name: 'Jane',
    });
    expect(
      changesFromOperations([
        {
          op: 'replace',
          value: {
            name: { givenName: 'Jane', familyName: 'Roe' },
            emails: [
              { type: 'home', value: 'home@example.com' },
              { primary: true, value: 'jane.roe@example.com' },
            ],
          },
        },
      ]),
    ).toEqual({ name: 'Jane Roe', email: 'jane.roe@example.com' });
  });

  it('accepts the string booleans some identity providers send for active', () => {
    expect(changesFromOperations([{ op: 'Replace', path: 'active', value: 'True' }])).toEqual({ active: true });
  });

  it('ignores remove and attributes kept nowhere here, as GitLab does', () => {
    expect(
      changesFromOperations([
        { op: 'Remove', path: 'name.formatted' },
        { op: 'Replace', path: 'title', value: 'Engineer' },
        { op: 'Add', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department', value: 'R&D' },
      ]),
    ).toEqual({});
  });

  it('accepts paths with the core schema URN', () => {
    expect(changesFromOperations([{ op: 'Replace', path: 'urn:ietf:params:scim:schemas:core:2.0:User:userName', value: 'jd' }])).toEqual({
      username: 'jd',
    });
  });

  it.each([
    [{ op: 'move', path: 'userName', value: 'x' }, 'Operations[0][op] does not have a valid value'],
    [{ op: 'Replace', path: 'userName', value: '' }, 'userName must be a non-empty string'],
    [{ op: 'Replace', path: 'externalId', value: 7 }, 'externalId must be a non-empty string'],
    [{ op: 'Replace', path: 'active', value: 'maybe' }, 'active must be a boolean'],
    [{ op: 'Replace', path: 'emails', value: 'jane@example.com' }, 'emails must be an array of emails'],
    [{ op: 'Replace', value: 'jane' }, 'Operations[0][value] must be an object when no path is given'],
  ])('refuses %j', (operation, message) => {
    expect(() => changesFromOperations([operation])).toThrow(InputError);
    expect(() => changesFromOperations([operation])).toThrow(message);
  });
});
