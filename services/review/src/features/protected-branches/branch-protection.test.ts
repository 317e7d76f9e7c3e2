import { describe, expect, it } from '@jest/globals';
import { ZERO_SHA } from '../repositories/git-repository.ts';
import {
  matchesProtectedName,
  protectionStatus,
  PUSH_REFUSALS,
  refusalOfUpdate,
  type BranchProtection,
  type PushPolicy,
} from './branch-protection.ts';

const levels = (...accessLevels: number[]) => accessLevels.map((accessLevel, index) => ({ id: index + 1, accessLevel }));
const protection = (name: string, options: { push?: number[]; merge?: number[]; allowForcePush?: boolean } = {}): BranchProtection => ({
  id: 1,
  name,
  accessLevels: { push: levels(...(options.push ?? [40])), merge: levels(...(options.merge ?? [40])), unprotect: levels(40) },
  allowForcePush: options.allowForcePush ?? false,
  codeOwnerApprovalRequired: false,
});
const developer = { accessLevel: 30, isAdmin: false };
const maintainer = { accessLevel: 40, isAdmin: false };
const A = 'a'.repeat(40);
const B = 'b'.repeat(40);

async function refusal(options: {
  ref: string;
  before?: string;
  after?: string;
  policy: Partial<PushPolicy>;
  forced?: boolean;
  via?: 'push' | 'api';
}) {
  const policy: PushPolicy = { protections: [], tagProtections: [], pusher: developer, defaultBranch: 'main', ...options.policy };
  return refusalOfUpdate({
    update: { ref: options.ref, before: options.before ?? A, after: options.after ?? B },
    policy,
    isForced: async () => options.forced ?? false,
    ...(options.via ? { via: options.via } : {}),
  });
}

describe('protected branch names', () => {
  it.each([
    ['main', 'main', true],
    ['main', 'main2', false],
    ['release/*', 'release/1.0', true],
    ['release/*', 'release/1.0/hotfix', true],
    ['release/*', 'prerelease/1.0', false],
    ['*-stable', '1-0-stable', true],
    ['*-stable', '1-0-stable-x', false],
    ['v1.*', 'v1x2', false],
    ['*', 'anything/at/all', true],
  ])('%s matches %s: %s', (pattern, branch, expected) => {
    expect(matchesProtectedName(pattern, branch)).toBe(expected);
  });
});

describe('pushed ref updates', () => {
  it('lets anybody with push rights update an unprotected branch, and tags pass', async () => {
    expect(await refusal({ ref: 'refs/heads/feature', policy: { protections: [protection('main')] } })).toBeUndefined();
    expect(await refusal({ ref: 'refs/tags/v1', after: ZERO_SHA, policy: { protections: [protection('*')] } })).toBeUndefined();
  });

  it('refuses a developer on a maintainers-only branch, and admits one where developers may push', async () => {
    expect(await refusal({ ref: 'refs/heads/main', policy: { protections: [protection('main')] } })).toBe(
      PUSH_REFUSALS.pushProtectedBranch,
    );
    expect(await refusal({ ref: 'refs/heads/main', policy: { protections: [protection('main', { push: [30] })] } })).toBeUndefined();
    expect(await refusal({ ref: 'refs/heads/main', policy: { protections: [protection('main')], pusher: maintainer } })).toBeUndefined();
    // Any matching protection that admits the pusher is enough.
    expect(
      await refusal({
        ref: 'refs/heads/release/1',
        policy: { protections: [protection('release/*'), protection('release/1', { push: [30] })] },
      }),
    ).toBeUndefined();
  });

  it('admits nobody through "no one", administrators through "admins"', async () => {
    const noOne = [protection('main', { push: [0] })];
    expect(await refusal({ ref: 'refs/heads/main', policy: { protections: noOne, pusher: { accessLevel: 50, isAdmin: true } } })).toBe(
      PUSH_REFUSALS.pushProtectedBranch,
    );
    const admins = [protection('main', { push: [60] })];
    expect(await refusal({ ref: 'refs/heads/main', policy: { protections: admins, pusher: { accessLevel: 50, isAdmin: false } } })).toBe(
      PUSH_REFUSALS.pushProtectedBranch,
    );
    expect(
      await refusal({ ref: 'refs/heads/main', policy: { protections: admins, pusher: { accessLevel: 0, isAdmin: true } } }),
    ).toBeUndefined();
  });

  it('refuses force pushes to a protected branch unless one of its protections allows them', async () => {
    const policy = { protections: [protection('main')], pusher: maintainer };
    expect(await refusal({ ref: 'refs/heads/main', policy, forced: true })).toBe(PUSH_REFUSALS.forcePushProtectedBranch);
    expect(
      await refusal({
        ref: 'refs/heads/main',
        policy: { ...policy, protections: [protection('main', { allowForcePush: true })] },
        forced: true,
      }),
    ).toBeUndefined();
    expect(await refusal({ ref: 'refs/heads/other', policy, forced: true })).toBeUndefined();
  });

  it('refuses deleting the default branch and protected branches over git', async () => {
    expect(await refusal({ ref: 'refs/heads/main', after: ZERO_SHA, policy: { pusher: maintainer } })).toBe(
      PUSH_REFUSALS.deleteDefaultBranch,
    );
    const policy = { protections: [protection('release/*')] };
    expect(await refusal({ ref: 'refs/heads/release/1', after: ZERO_SHA, policy })).toBe(PUSH_REFUSALS.nonMaintainerDeleteProtectedBranch);
    expect(await refusal({ ref: 'refs/heads/release/1', after: ZERO_SHA, policy: { ...policy, pusher: maintainer } })).toBe(
      PUSH_REFUSALS.nonWebDeleteProtectedBranch,
    );
  });

  it('refuses creating a protected branch to those who may neither push nor merge there', async () => {
    expect(await refusal({ ref: 'refs/heads/release/2', before: ZERO_SHA, policy: { protections: [protection('release/*')] } })).toBe(
      PUSH_REFUSALS.createProtectedBranch,
    );
    expect(
      await refusal({ ref: 'refs/heads/release/2', before: ZERO_SHA, policy: { protections: [protection('release/*', { merge: [30] })] } }),
    ).toBe(PUSH_REFUSALS.nonWebCreateProtectedBranch);
  });

  it('lets the API create a protected branch where the caller may merge and delete one as a maintainer, with the other rules unchanged', async () => {
    const mergeable = { protections: [protection('release/*', { merge: [30] })] };
    expect(await refusal({ ref: 'refs/heads/release/2', before: ZERO_SHA, policy: mergeable, via: 'api' })).toBeUndefined();
    expect(
      await refusal({ ref: 'refs/heads/release/2', before: ZERO_SHA, policy: { protections: [protection('release/*')] }, via: 'api' }),
    ).toBe(PUSH_REFUSALS.createProtectedBranch);
    const policy = { protections: [protection('release/*')] };
    expect(
      await refusal({ ref: 'refs/heads/release/1', after: ZERO_SHA, policy: { ...policy, pusher: maintainer }, via: 'api' }),
    ).toBeUndefined();
    expect(await refusal({ ref: 'refs/heads/release/1', after: ZERO_SHA, policy, via: 'api' })).toBe(
      PUSH_REFUSALS.nonMaintainerDeleteProtectedBranch,
    );
    expect(await refusal({ ref: 'refs/heads/main', after: ZERO_SHA, policy: { pusher: maintainer }, via: 'api' })).toBe(
      PUSH_REFUSALS.deleteDefaultBranch,
    );
    expect(await refusal({ ref: 'refs/heads/release/1', policy, forced: true, via: 'api' })).toBe(PUSH_REFUSALS.forcePushProtectedBranch);
  });
});

describe('entries naming users and groups', () => {
  const named: BranchProtection = {
    id: 1,
    name: 'release/*',
    accessLevels: {
      push: [
        { id: 1, accessLevel: 40, userId: 7 },
        { id: 2, accessLevel: 40, groupId: 3 },
      ],
      merge: [{ id: 3, accessLevel: 40 }],
      unprotect: [{ id: 4, accessLevel: 40 }],
    },
    allowForcePush: false,
    codeOwnerApprovalRequired: false,
  };

  it("admit the named user and the named group's members, if they may push at all, and nobody by the entry's level", async () => {
    const push = (pusher: PushPolicy['pusher']) => refusal({ ref: 'refs/heads/release/1', policy: { protections: [named], pusher } });
    expect(await push({ ...developer, userId: 7 })).toBeUndefined();
    expect(await push({ ...developer, userId: 8, groupIds: [3] })).toBeUndefined();
    expect(await push({ ...developer, userId: 8, groupIds: [4] })).toBe(PUSH_REFUSALS.pushProtectedBranch);
    // A maintainer is not admitted by a user's entry, whose level is only GitLab's default.
    expect(await push({ ...maintainer, userId: 9 })).toBe(PUSH_REFUSALS.pushProtectedBranch);
    expect(await push({ accessLevel: 20, isAdmin: false, userId: 7 })).toBe(PUSH_REFUSALS.pushProtectedBranch);
  });
});

describe('protection status of a branch', () => {
  it('says whether developers may push and merge, and whether the actor may push', () => {
    const protections = [protection('main', { merge: [30] })];
    expect(protectionStatus({ branch: 'main', protections, actor: developer })).toEqual({
      protected: true,
      developersCanPush: false,
      developersCanMerge: true,
      canPush: false,
    });
    expect(protectionStatus({ branch: 'feature', protections, actor: developer })).toEqual({
      protected: false,
      developersCanPush: false,
      developersCanMerge: false,
      canPush: true,
    });
  });
});

describe('pushed tag updates', () => {
  const tagProtections = [{ id: 1, name: 'v*', createAccessLevels: levels(40) }];

  it('lets only the roles a protected tag allows create its tags; other tags pass', async () => {
    const create = { before: ZERO_SHA, after: B };
    expect(await refusal({ ref: 'refs/tags/v1', ...create, policy: { tagProtections } })).toBe(PUSH_REFUSALS.createProtectedTag);
    expect(await refusal({ ref: 'refs/tags/v1', ...create, policy: { tagProtections, pusher: maintainer } })).toBeUndefined();
    expect(await refusal({ ref: 'refs/tags/rc1', ...create, policy: { tagProtections } })).toBeUndefined();
  });

  it('never moves a protected tag, and deletes one only through the API, by a maintainer allowed to create it', async () => {
    expect(await refusal({ ref: 'refs/tags/v1', policy: { tagProtections, pusher: maintainer } })).toBe(PUSH_REFUSALS.updateProtectedTag);
    const deletion = { ref: 'refs/tags/v1', after: ZERO_SHA };
    expect(await refusal({ ...deletion, policy: { tagProtections } })).toBe(PUSH_REFUSALS.nonMaintainerDeleteProtectedTag);
    expect(await refusal({ ...deletion, policy: { tagProtections, pusher: maintainer } })).toBe(PUSH_REFUSALS.nonWebDeleteProtectedTag);
    expect(await refusal({ ...deletion, via: 'api', policy: { tagProtections, pusher: maintainer } })).toBeUndefined();
    const frozen = [{ id: 2, name: 'v*', createAccessLevels: levels(0) }];
    expect(await refusal({ ...deletion, via: 'api', policy: { tagProtections: frozen, pusher: maintainer } })).toBe(
      PUSH_REFUSALS.createProtectedTag,
    );
  });
});
