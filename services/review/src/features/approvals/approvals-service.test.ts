import { describe, expect, it } from '@jest/globals';
import { ConflictError, FieldValidationError, ForbiddenError, NotFoundError, UnauthorizedError } from '@platform/errors';
import type { ProjectAccess } from '@platform/identity-client';
import { fakeTransactions, userCaller } from '@platform/testing';
import type { BranchProtection } from '../protected-branches/branch-protection.ts';
import type { MergeRequest, MergeRequestDiff } from '../merge-requests/merge-request.entity.ts';
import type { ProjectRepository } from '../repositories/repositories-service.ts';
import { ApprovalsService, type ApprovalMergeRequests } from './approvals-service.ts';
import type { ApproverDirectory } from './approver-directory.ts';
import { FakeApprovalStore } from './fake-approvals-store.ts';
import type { EntityManager } from '@platform/db';

// The approval rules and who may approve, on a fake store: no PostgreSQL, no git, no identity.
const HEAD = 'a'.repeat(40);
const author = userCaller(2, 'author');
const developer = userCaller(3, 'developer');
const otherDeveloper = userCaller(4, 'other');
const reporter = userCaller(5, 'reporter');
const levels: Record<number, number> = { [author.userId]: 30, [developer.userId]: 30, [otherDeveloper.userId]: 30, [reporter.userId]: 20 };

const projectFor = (userId: number) =>
  ({ id: 10, pathWithNamespace: 'group/project', accessLevel: levels[userId] ?? 0, isAdmin: false }) as ProjectAccess;

function mergeRequest(changes: Partial<MergeRequest> = {}): MergeRequest {
  return {
    id: 1,
    iid: 1,
    projectId: 10,
    sourceProjectId: 10,
    authorId: author.userId,
    state: 'opened',
    targetBranch: 'main',
    headSha: HEAD,
    approvalsBeforeMerge: null,
    ...changes,
  } as MergeRequest;
}

/** A directory whose only group (7) has the other developer as its member, and whose password is `secret`. */
const directory: ApproverDirectory = {
  groups: async (ids) => new Map(ids.filter((id) => id === 7).map((id) => [id, { id } as never])),
  group: async () => undefined,
  groupMembers: async (ids) => new Map(ids.filter((id) => id === 7).map((id) => [id, [otherDeveloper.userId]])),
  usersByUsername: async () => [],
  userIdsByCommitEmail: async () => [],
  projectRoles: async () => new Map(),
  verifyPassword: async (_caller, password) => password === 'secret',
};

/** Merge requests with no diff version yet: nobody committed, nothing to own. */
const mergeRequests: ApprovalMergeRequests = {
  latestVersion: async () => undefined,
  versionContents: async () => ({ commits: [], diffs: [] }),
  openTargeting: async () => [],
};

/** A repository without a CODEOWNERS file. */
const repository = { projectId: 10, git: { resolveCommit: async () => HEAD, readFile: async () => null } } as unknown as ProjectRepository;

/** The fake store keeps no transactions: a unit of work runs its work as it is. */
const noTransaction = fakeTransactions<EntityManager>();

function approvals(options: { protections?: BranchProtection[] } = {}) {
  const store = new FakeApprovalStore();
  const service = new ApprovalsService({
    em: noTransaction,
    store,
    directory,
    protectedBranches: { list: async () => options.protections ?? [] },
    mergeRequests,
    repositories: { ensure: async () => repository },
  });
  const approve = (caller: typeof developer, target = mergeRequest(), more: { sha?: string; password?: string } = {}) =>
    service.approve({ project: projectFor(caller.userId), caller, mergeRequest: target, ...more });
  return { store, service, approve };
}

const rule = (
  name: string,
  changes: { approvalsRequired?: number; userIds?: number[]; groupIds?: number[]; protectedBranchIds?: number[] } = {},
) => ({
  name,
  approvalsRequired: changes.approvalsRequired ?? 1,
  userIds: changes.userIds,
  groupIds: changes.groupIds,
  protectedBranchIds: changes.protectedBranchIds,
});

describe('ApprovalsService', () => {
  it('lets a developer approve once while no rule names approvers, never the author by default', async () => {
    const { store, service, approve } = approvals();
    await expect(approve(author)).rejects.toEqual(new UnauthorizedError());
    const state = await approve(developer);
    expect(state).toMatchObject({ approverIds: [developer.userId], approvalsRequired: 0, approvalsLeft: 0, approved: true });
    await expect(approve(developer)).rejects.toEqual(new UnauthorizedError());
    expect(store.events).toEqual([
      {
        type: 'review.merge_request.approved',
        data: { projectId: 10, mergeRequestId: 1, iid: 1, userId: developer.userId, sha: HEAD },
        actor: { id: developer.userId, name: 'developer', username: 'developer' },
      },
    ]);
    expect(await service.isApproved(mergeRequest())).toBe(true);
  });

  it('lets the author approve when the project allows it', async () => {
    const { service, approve } = approvals();
    await service.updateSettings(10, { mergeRequestsAuthorApproval: true });
    expect((await approve(author)).approverIds).toEqual([author.userId]);
  });

  it('refuses approvals of a merge request that is not open, and from a reporter no rule names', async () => {
    const { approve } = approvals();
    await expect(approve(developer, mergeRequest({ state: 'merged' }))).rejects.toEqual(new UnauthorizedError());
    await expect(approve(reporter)).rejects.toEqual(new UnauthorizedError());
  });

  it('refuses a stale sha as a conflict naming the head, and a wrong password when one is required', async () => {
    const { service, approve } = approvals();
    await expect(approve(developer, mergeRequest(), { sha: 'b'.repeat(40) })).rejects.toEqual(
      new ConflictError(`SHA does not match HEAD of source branch: ${HEAD}`),
    );
    await service.updateSettings(10, { requirePasswordToApprove: true });
    await expect(approve(developer, mergeRequest(), { password: 'wrong' })).rejects.toEqual(new UnauthorizedError());
    expect((await approve(developer, mergeRequest(), { sha: HEAD, password: 'secret' })).approved).toBe(true);
  });

  it("restricts approving to a regular rule's approvers (its users and its groups' members) until it is satisfied", async () => {
    const { service, approve } = approvals();
    await service.createProjectRule(
      projectFor(developer.userId),
      developer,
      rule('Security', { approvalsRequired: 2, userIds: [reporter.userId], groupIds: [7, 99] }),
    );
    const before = await service.state(mergeRequest());
    expect(before).toMatchObject({ approvalsRequired: 2, approvalsLeft: 2, approved: false });
    expect(before.rules.map(({ shown }) => shown.eligible)).toEqual([[reporter.userId, otherDeveloper.userId]]);

    await expect(approve(developer)).rejects.toEqual(new UnauthorizedError());
    expect(await approve(reporter)).toMatchObject({ approvalsLeft: 1, approved: false });
    expect(await approve(otherDeveloper)).toMatchObject({ approvalsLeft: 0, approved: true });
    // Once every rule is satisfied, any developer may add an approval.
    expect((await approve(developer)).approverIds).toEqual([reporter.userId, otherDeveloper.userId, developer.userId]);
  });

  it('applies a project rule scoped to protected branches only to merge requests into them', async () => {
    const protection = { id: 5, name: 'release/*' } as BranchProtection;
    const { service } = approvals({ protections: [protection] });
    await service.createProjectRule(projectFor(developer.userId), developer, rule('Release', { protectedBranchIds: [5, 6] }));
    expect((await service.projectRules(10)).map((shown) => shown.protectedBranchIds)).toEqual([[5]]);
    expect((await service.state(mergeRequest({ targetBranch: 'main' }))).approvalsRequired).toBe(0);
    expect((await service.state(mergeRequest({ targetBranch: 'release/1' }))).approvalsRequired).toBe(1);
  });

  it('counts the deprecated approvals before merge as an any-approver rule while no rule applies', async () => {
    const { service, approve } = approvals();
    await service.updateSettings(10, { approvalsBeforeMerge: 2 });
    expect((await service.state(mergeRequest())).rules.map(({ shown }) => shown.rule.ruleType)).toEqual(['any_approver']);
    expect(await approve(otherDeveloper)).toMatchObject({ approvalsRequired: 2, approvalsLeft: 1 });
    expect((await service.state(mergeRequest({ approvalsBeforeMerge: 1 }))).approved).toBe(true);
  });

  it("replaces the project's rules with the merge request's own, unless the project forbids overriding", async () => {
    const { service } = approvals();
    const project = projectFor(developer.userId);
    await service.createProjectRule(project, developer, rule('Project', { approvalsRequired: 3 }));
    await service.createMergeRequestRule(project, developer, mergeRequest(), rule('Own', { approvalsRequired: 1 }));
    const own = await service.state(mergeRequest());
    expect(own).toMatchObject({ overwritten: true, approvalsRequired: 1 });

    await service.updateSettings(10, { disableOverridingApproversPerMergeRequest: true });
    expect(await service.state(mergeRequest())).toMatchObject({ overwritten: false, approvalsRequired: 3 });
    await expect(service.createMergeRequestRule(project, developer, mergeRequest(), rule('Another'))).rejects.toEqual(new ForbiddenError());
  });

  it('refuses a rule named as another of the same project or merge request, and rules of elsewhere as unknown', async () => {
    const { service } = approvals();
    const project = projectFor(developer.userId);
    const created = await service.createProjectRule(project, developer, rule('Security'));
    await expect(service.createProjectRule(project, developer, rule('Security'))).rejects.toEqual(
      new FieldValidationError({ name: ['has already been taken'] }),
    );
    const other = await service.createProjectRule(project, developer, rule('Other'));
    await expect(service.updateProjectRule(project, developer, other.id, { name: 'Security' })).rejects.toBeInstanceOf(
      FieldValidationError,
    );
    // A merge request's own rule may take a project rule's name.
    const own = await service.createMergeRequestRule(project, developer, mergeRequest(), rule('Security'));
    await expect(service.projectRule(11, created.id)).rejects.toEqual(new NotFoundError());
    await expect(service.projectRule(10, own.id)).rejects.toEqual(new NotFoundError());
    await expect(service.mergeRequestRule(mergeRequest({ id: 2 }), own.id)).rejects.toEqual(new NotFoundError());
  });

  it('copies a project rule into a merge request with the approvals required given', async () => {
    const { service } = approvals();
    const project = projectFor(developer.userId);
    const source = await service.createProjectRule(project, developer, rule('Security', { userIds: [reporter.userId] }));
    const copy = await service.createMergeRequestRule(project, developer, mergeRequest(), {
      ...rule('ignored', { approvalsRequired: 2 }),
      approvalProjectRuleId: source.id,
    });
    expect(copy).toMatchObject({
      name: 'Security',
      userIds: [reporter.userId],
      approvalsRequired: 2,
      sourceRuleId: source.id,
      mergeRequestId: 1,
    });
  });

  it('refuses to edit or delete a code owner rule with Prohibited', async () => {
    const { store, service } = approvals();
    await store.replaceCodeOwnerRules(1, [
      {
        projectId: 10,
        mergeRequestId: 1,
        name: '*.md',
        ruleType: 'code_owner',
        approvalsRequired: 0,
        userIds: [],
        groupIds: [],
        protectedBranchIds: [],
        sourceRuleId: null,
        section: 'codeowners',
      },
    ]);
    const [owned] = await service.mergeRequestRules(mergeRequest());
    const project = projectFor(developer.userId);
    await expect(service.updateMergeRequestRule(project, developer, mergeRequest(), owned!.id, { approvalsRequired: 1 })).rejects.toEqual(
      new ForbiddenError(['Prohibited']),
    );
    await expect(service.deleteMergeRequestRule(project, developer, mergeRequest(), owned!.id)).rejects.toEqual(
      new ForbiddenError(['Prohibited']),
    );
    expect(await service.mergeRequestRules(mergeRequest())).toHaveLength(1);
  });

  it('takes back only an approval given, recording the unapproval', async () => {
    const { store, service, approve } = approvals();
    await expect(service.unapprove({ caller: developer, mergeRequest: mergeRequest() })).rejects.toEqual(new NotFoundError());
    await approve(developer);
    expect((await service.unapprove({ caller: developer, mergeRequest: mergeRequest() })).approverIds).toEqual([]);
    expect(store.events.map((event) => event.type)).toEqual(['review.merge_request.approved', 'review.merge_request.unapproved']);
  });

  it('resets approvals on a push to the source when the project says so, not on other new versions', async () => {
    const { service, approve } = approvals();
    const version = { mergeRequestId: 1, startCommitSha: HEAD } as MergeRequestDiff;
    await approve(developer);
    await service.onNewVersion({ mergeRequest: mergeRequest(), repository, version, cause: 'retargeted' });
    expect((await service.state(mergeRequest())).approverIds).toEqual([developer.userId]);
    await service.onNewVersion({ mergeRequest: mergeRequest(), repository, version, cause: 'pushed' });
    expect((await service.state(mergeRequest())).approverIds).toEqual([]);

    await service.updateSettings(10, { resetApprovalsOnPush: false });
    await approve(developer);
    await service.onNewVersion({ mergeRequest: mergeRequest(), repository, version, cause: 'pushed' });
    expect((await service.state(mergeRequest())).approverIds).toEqual([developer.userId]);
  });
});
