import { describe, expect, it } from '@jest/globals';
import type { AuthenticatedCaller, Caller } from '@platform/auth';
import type { ProjectAccess } from '@platform/identity-client';
import { GIT_MESSAGES, refusalFor } from './smart-http-router.ts';

const project = (visibility: ProjectAccess['visibility'], accessLevel: number): ProjectAccess => ({
  id: 1,
  pathWithNamespace: 'acme/app',
  visibility,
  webUrl: 'http://localhost/acme/app',
  defaultBranch: 'main',
  namespaceIds: [1],
  accessLevel,
  isAdmin: false,
  mergeMethod: 'merge',
  forkedFromProjectId: null,
  archived: false,
  onlyAllowMergeIfPipelineSucceeds: false,
  allowMergeOnSkippedPipeline: false,
  onlyAllowMergeIfAllDiscussionsAreResolved: false,
});
const user = (scopes: string[]): AuthenticatedCaller => ({ kind: 'user', userId: 2, username: 'dev', name: 'Dev', isAdmin: false, scopes });
const anonymous: Caller = { kind: 'anonymous' };
const outcome = (caller: Caller, service: 'git-upload-pack' | 'git-receive-pack', target: ProjectAccess | undefined) => {
  const refusal = refusalFor({ caller, service, project: target });
  return refusal ? [refusal.status, refusal.message] : 'allowed';
};

describe('who may clone and push', () => {
  it('lets anybody clone a public project and challenges anonymous pushes', () => {
    expect(outcome(anonymous, 'git-upload-pack', project('public', 0))).toBe('allowed');
    expect(outcome(anonymous, 'git-receive-pack', project('public', 0))).toEqual([401, 'HTTP Basic: Access denied']);
  });

  it('challenges anonymous callers where a project is private or unknown, and tells users it is not found', () => {
    expect(outcome(anonymous, 'git-upload-pack', project('private', 0))).toEqual([401, 'HTTP Basic: Access denied']);
    expect(outcome(anonymous, 'git-upload-pack', undefined)).toEqual([401, 'HTTP Basic: Access denied']);
    expect(outcome(user(['api']), 'git-upload-pack', undefined)).toEqual([404, GIT_MESSAGES.notFound]);
  });

  it('lets reporters clone a private project, not guests, and developers push', () => {
    expect(outcome(user(['api']), 'git-upload-pack', project('private', 10))).toEqual([403, GIT_MESSAGES.download]);
    expect(outcome(user(['api']), 'git-upload-pack', project('private', 20))).toBe('allowed');
    expect(outcome(user(['api']), 'git-receive-pack', project('private', 20))).toEqual([403, GIT_MESSAGES.push]);
    expect(outcome(user(['api']), 'git-receive-pack', project('private', 30))).toBe('allowed');
  });

  it('lets an archived project be cloned but pushed to by nobody, maintainers and administrators included', () => {
    const archived = (accessLevel: number): ProjectAccess => ({ ...project('private', accessLevel), archived: true });
    expect(outcome(user(['api']), 'git-upload-pack', archived(20))).toBe('allowed');
    expect(outcome(user(['api']), 'git-receive-pack', archived(40))).toEqual([403, GIT_MESSAGES.archived]);
    expect(outcome(user(['api']), 'git-receive-pack', { ...archived(0), isAdmin: true })).toEqual([403, GIT_MESSAGES.archived]);
  });

  it('needs read_repository to clone and write_repository to push; other scopes are challenged', () => {
    expect(outcome(user(['read_repository']), 'git-upload-pack', project('private', 40))).toBe('allowed');
    expect(outcome(user(['read_repository']), 'git-receive-pack', project('private', 40))).toEqual([403, GIT_MESSAGES.uploadScope]);
    expect(outcome(user(['write_repository']), 'git-receive-pack', project('private', 40))).toBe('allowed');
    expect(outcome(user(['read_api']), 'git-upload-pack', project('public', 40))).toEqual([401, 'HTTP Basic: Access denied']);
  });
});
