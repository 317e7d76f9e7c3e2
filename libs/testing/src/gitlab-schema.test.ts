import { describe, expect, it } from '@jest/globals';
import { gitlabSchemaErrors } from './gitlab-schema.ts';

describe('GitLab schema check', () => {
  const basic = { id: 1, name: 'A', username: 'a', state: 'active', avatar_url: null, web_url: 'http://x/a' };

  it('accepts a body of the right shape, following $refs', () => {
    expect(gitlabSchemaErrors('user/basic.json', basic)).toEqual([]);
    expect(gitlabSchemaErrors('user/basics.json', [basic])).toEqual([]);
  });

  it('reports missing and mistyped fields', () => {
    expect(gitlabSchemaErrors('user/basic.json', { ...basic, id: 'one', web_url: undefined })).toEqual([
      "/ must have required property 'web_url'",
      '/id must be integer',
    ]);
  });

  it('uses the neutral names for branded fields', () => {
    const errors = gitlabSchemaErrors('user/public.json', {});
    expect(errors).toContain("/ must have required property 'messenger_id'");
    expect(errors.join()).not.toMatch(/skype|linkedin|twitter/);
  });
});
