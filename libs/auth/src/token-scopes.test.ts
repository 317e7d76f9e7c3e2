import { describe, expect, it } from '@jest/globals';
import { InsufficientScopeError } from '@platform/errors';
import type { AuthenticatedCaller } from './caller-token.ts';
import { hasScope, requireScope, requireSudoScope } from './token-scopes.ts';

function tokenWith(...scopes: string[]): AuthenticatedCaller {
  return { kind: 'user', userId: 2, username: 'ada', name: 'Ada', isAdmin: false, scopes };
}

describe('token scopes', () => {
  it('lets api grant every endpoint scope', () => {
    for (const scope of [
      'api',
      'read_api',
      'read_user',
      'read_repository',
      'write_repository',
      'read_registry',
      'write_registry',
    ] as const) {
      expect(hasScope(tokenWith('api'), scope)).toBe(true);
    }
  });

  it('lets read_api grant reads only, and read_user the user reads only', () => {
    expect(hasScope(tokenWith('read_api'), 'read_api')).toBe(true);
    expect(hasScope(tokenWith('read_api'), 'read_user')).toBe(true);
    expect(hasScope(tokenWith('read_api'), 'api')).toBe(false);
    expect(hasScope(tokenWith('read_user'), 'read_user')).toBe(true);
    expect(hasScope(tokenWith('read_user'), 'read_api')).toBe(false);
  });

  it('lets write scopes include their read scopes, and nothing of the API', () => {
    expect(hasScope(tokenWith('write_repository'), 'read_repository')).toBe(true);
    expect(hasScope(tokenWith('read_repository'), 'write_repository')).toBe(false);
    expect(hasScope(tokenWith('write_registry'), 'read_registry')).toBe(true);
    expect(hasScope(tokenWith('read_repository'), 'read_api')).toBe(false);
    expect(hasScope(tokenWith('sudo', 'admin_mode'), 'read_api')).toBe(false);
  });

  it('lets read_repository read repository files through the API, as GitLab does, and nothing else of it', () => {
    expect(hasScope(tokenWith('read_repository'), 'read_code')).toBe(true);
    expect(hasScope(tokenWith('read_api'), 'read_code')).toBe(true);
    expect(hasScope(tokenWith('read_user'), 'read_code')).toBe(false);
    expect(hasScope(tokenWith('read_registry'), 'read_code')).toBe(false);
  });

  it('lets a self_rotate token rotate itself and nothing more, as api tokens may too', () => {
    expect(hasScope(tokenWith('self_rotate'), 'self_rotate')).toBe(true);
    expect(hasScope(tokenWith('api'), 'self_rotate')).toBe(true);
    expect(hasScope(tokenWith('read_api'), 'self_rotate')).toBe(false);
    expect(hasScope(tokenWith('self_rotate'), 'read_api')).toBe(false);
  });

  it('names the scopes that would have been accepted', () => {
    expect(() => requireScope(tokenWith('read_user'), 'read_api')).toThrow(InsufficientScopeError);
    try {
      requireScope(tokenWith('read_repository'), 'read_user');
    } catch (error) {
      expect((error as InsufficientScopeError).scopes).toEqual(['api', 'read_api', 'read_user']);
    }
    expect.assertions(2);
  });

  it('requires the sudo scope itself for impersonation', () => {
    expect(() => requireSudoScope(['api'])).toThrow(InsufficientScopeError);
    expect(() => requireSudoScope(['api', 'sudo'])).not.toThrow();
  });
});
