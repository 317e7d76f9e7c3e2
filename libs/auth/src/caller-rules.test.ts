import { describe, expect, it } from '@jest/globals';
import { ForbiddenError, UnauthorizedError } from '@platform/errors';
import { requireUser } from './caller-rules.ts';
import { anonymousCaller, type Caller } from './caller-token.ts';

describe('requireUser', () => {
  it('refuses an anonymous caller as unauthenticated, and a deploy token as forbidden', () => {
    expect(() => requireUser(anonymousCaller())).toThrow(UnauthorizedError);
    const deployToken: Caller = {
      kind: 'anonymous',
      deployToken: { id: 1, username: 'gitlab+deploy-token-1', scopes: ['read_package_registry'], projectId: 2, groupId: null },
    };
    expect(() => requireUser(deployToken)).toThrow(ForbiddenError);
  });
});
