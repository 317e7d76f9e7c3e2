import { actorOf, type AuthenticatedCaller } from '@platform/auth';
import type { EntityManager } from '@platform/db';
import { ConflictError, ForbiddenError, NotFoundError, UnauthorizedError } from '@platform/errors';
import type { OutgoingEvent } from '@platform/events';
import { ACCESS_LEVEL, type ProjectAccess } from '@platform/identity-client';
import { reviewEvents } from '@platform/review-client';
import { ZERO_SHA } from '../repositories/git-repository.ts';
import type { RefChange } from '../repositories/ref-changes.ts';
import type { ProjectRepository, RepositoriesService } from '../repositories/repositories-service.ts';
import { protectionsOf, type BranchProtection } from '../protected-branches/branch-protection.ts';
import type { ProtectedBranchesService } from '../protected-branches/protected-branches-service.ts';
import type { MergeRequest, MergeRequestDiff } from '../merge-requests/merge-request.entity.ts';
import type { MergeRequestsService } from '../merge-requests/merge-requests-service.ts';
import type { VersionCause } from '../merge-requests/merge-request-versions.ts';
import type { ApprovalRule, ApprovalSettings, MergeRequestApprovalSettings } from './approval.entity.ts';
import {
  approvalsLeft,
  approvalsRequired,
  eligibleApprovers,
  mayApprove,
  ruleAppliesToBranch,
  ruleStates,
  type ResolvedRule,
  type RuleState,
} from './approval-state.ts';
import type { ApprovalRuleChanges, ApprovalStore, NewApprovalRule } from './approvals-store.ts';
import type { ApproverDirectory } from './approver-directory.ts';
import { CODE_OWNERS_PATHS, entriesOwning, parseCodeOwners } from './code-owners.ts';

/** Rule types no one edits: GitLab makes them from CODEOWNERS and security reports. */
const SYSTEM_RULE_TYPES = new Set(['code_owner', 'report_approver']);
const BRANCH_PREFIX = 'refs/heads/';
/** GitLab's refusal to change a system rule: its approval rule services' 403 with `["Prohibited"]`. */
const prohibited = () => new ForbiddenError(['Prohibited']);
/** GitLab's name of the rule every eligible member may satisfy. */
const ANY_APPROVER_NAME = 'All Members';

export type SettingsChanges = Partial<
  Pick<
    ApprovalSettings,
    | 'approvalsBeforeMerge'
    | 'resetApprovalsOnPush'
    | 'disableOverridingApproversPerMergeRequest'
    | 'mergeRequestsAuthorApproval'
    | 'mergeRequestsDisableCommittersApproval'
    | 'requirePasswordToApprove'
  >
>;

export interface RuleInput {
  name: string;
  approvalsRequired: number;
  ruleType?: 'regular' | 'any_approver' | undefined;
  userIds?: number[] | undefined;
  groupIds?: number[] | undefined;
  protectedBranchIds?: number[] | undefined;
}

/** A rule as its views show it: the stored rule and its approvers, resolved. */
export interface ShownRule {
  rule: ApprovalRule;
  eligible: number[];
  /** The project rule a merge request rule was copied from. */
  source?: ApprovalRule | undefined;
}

/** Everything the approval views of a merge request show. */
export interface ApprovalState {
  settings: ApprovalSettings;
  mergeRequestSettings: MergeRequestApprovalSettings;
  /** Merge-request-level rules replace the project's. */
  overwritten: boolean;
  rules: Array<RuleState & { shown: ShownRule }>;
  approverIds: number[];
  /** Who may not approve whatever the rules say: the author and committers, as the settings forbid. */
  excludedIds: number[];
  approvalsRequired: number;
  approvalsLeft: number;
  approved: boolean;
}

/** The deprecated approvers of a merge request: its own once set, else its project's. */
export function ownOrProjectApprovers(
  settings: ApprovalSettings,
  own: MergeRequestApprovalSettings,
): { userIds: number[]; groupIds: number[] } {
  if (own.approverIds === null || own.approverIds === undefined)
    return { userIds: settings.approverIds, groupIds: settings.approverGroupIds };
  return { userIds: own.approverIds, groupIds: own.approverGroupIds ?? [] };
}

/** A rule of the deprecated `approvals_before_merge`, which has no row of its own. */
function anyApproverRule(options: {
  projectId: number;
  mergeRequestId: number;
  approvalsRequired: number;
  userIds: number[];
  groupIds: number[];
}): ApprovalRule {
  const epoch = new Date(0);
  return {
    id: 0,
    projectId: options.projectId,
    mergeRequestId: options.mergeRequestId,
    name: ANY_APPROVER_NAME,
    ruleType: 'any_approver',
    approvalsRequired: options.approvalsRequired,
    userIds: options.userIds,
    groupIds: options.groupIds,
    protectedBranchIds: [],
    sourceRuleId: null,
    section: null,
    createdAt: epoch,
    updatedAt: epoch,
  };
}

function ruleEventData(project: ProjectAccess, rule: ApprovalRule, iid: number) {
  return {
    aggregateId: project.id,
    data: {
      projectId: project.id,
      projectPath: project.pathWithNamespace,
      ruleId: rule.id,
      mergeRequestIid: iid,
      name: rule.name,
      ruleType: rule.ruleType,
      approvalsRequired: rule.approvalsRequired,
      userIds: rule.userIds,
      groupIds: rule.groupIds,
      protectedBranchIds: rule.protectedBranchIds,
    },
  };
}

/** What approvals read of protected branches: which rules apply to a target, code owner approval. */
export type ApprovalBranchRules = Pick<ProtectedBranchesService, 'list'>;

/** What approvals read of merge requests: their newest version and its changes, and those open into a branch. */
export type ApprovalMergeRequests = Pick<MergeRequestsService, 'latestVersion' | 'versionContents' | 'openTargeting'>;

/** Where approvals read commits and CODEOWNERS files. */
export type ApprovalRepositories = Pick<RepositoriesService, 'ensure'>;

/**
 * Approval settings, approval rules of projects and merge requests, approvals, and the code owner
 * rules a CODEOWNERS file makes, with GitLab's arithmetic of what a merge request still needs.
 */
export class ApprovalsService {
  readonly #em: EntityManager;
  readonly #store: ApprovalStore;
  readonly #directory: ApproverDirectory;
  readonly #protectedBranches: ApprovalBranchRules;
  readonly #mergeRequests: ApprovalMergeRequests;
  readonly #repositories: ApprovalRepositories;

  constructor(options: {
    em: EntityManager;
    store: ApprovalStore;
    directory: ApproverDirectory;
    protectedBranches: ApprovalBranchRules;
    mergeRequests: ApprovalMergeRequests;
    repositories: ApprovalRepositories;
  }) {
    this.#em = options.em;
    this.#store = options.store;
    this.#directory = options.directory;
    this.#protectedBranches = options.protectedBranches;
    this.#mergeRequests = options.mergeRequests;
    this.#repositories = options.repositories;
  }

  settings(projectId: number): Promise<ApprovalSettings> {
    return this.#store.settings(projectId);
  }

  async updateSettings(projectId: number, changes: SettingsChanges): Promise<ApprovalSettings> {
    const settings = await this.#store.settings(projectId);
    const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    const updated = { ...settings, ...defined, updatedAt: new Date() };
    await this.#em.transactional(() => this.#store.saveSettings(updated));
    return updated;
  }

  /** The deprecated `PUT /projects/:id/approvers`: the listed users and groups replace the previous ones. */
  async setProjectApprovers(projectId: number, approvers: { userIds: number[]; groupIds: number[] }): Promise<ApprovalSettings> {
    const settings = await this.#store.settings(projectId);
    const updated = {
      ...settings,
      approverIds: [...new Set(approvers.userIds)],
      approverGroupIds: await this.#existingGroups(approvers.groupIds),
      updatedAt: new Date(),
    };
    await this.#em.transactional(() => this.#store.saveSettings(updated));
    return updated;
  }

  async #existingGroups(ids: number[]): Promise<number[]> {
    const found = await this.#directory.groups(ids);
    return [...new Set(ids)].filter((id) => found.has(id));
  }

  // Project rules

  projectRules(projectId: number): Promise<ApprovalRule[]> {
    return this.#store.projectRules(projectId);
  }

  async projectRule(projectId: number, ruleId: number): Promise<ApprovalRule> {
    const rule = await this.#store.rule(ruleId);
    if (!rule || rule.projectId !== projectId || rule.mergeRequestId !== null) throw new NotFoundError();
    return rule;
  }

  async #validProtectedBranchIds(projectId: number, ids: number[] | undefined): Promise<number[] | undefined> {
    if (ids === undefined) return undefined;
    const known = new Set((await this.#protectedBranches.list(projectId)).map((protection) => protection.id));
    return [...new Set(ids)].filter((id) => known.has(id));
  }

  async createProjectRule(project: ProjectAccess, caller: AuthenticatedCaller, input: RuleInput): Promise<ApprovalRule> {
    const rule: NewApprovalRule = {
      projectId: project.id,
      mergeRequestId: null,
      name: input.name,
      ruleType: input.ruleType ?? 'regular',
      approvalsRequired: input.approvalsRequired,
      userIds: [...new Set(input.userIds ?? [])],
      groupIds: await this.#existingGroups(input.groupIds ?? []),
      protectedBranchIds: (await this.#validProtectedBranchIds(project.id, input.protectedBranchIds)) ?? [],
      sourceRuleId: null,
      section: null,
    };
    return this.#em.transactional(() =>
      this.#store.createRule(rule, (created) => ({
        events: [reviewEvents.approvalRuleCreated.event(ruleEventData(project, created, 0))],
        actor: actorOf(caller),
      })),
    );
  }

  async updateProjectRule(
    project: ProjectAccess,
    caller: AuthenticatedCaller,
    ruleId: number,
    input: Partial<RuleInput>,
  ): Promise<ApprovalRule> {
    const rule = await this.projectRule(project.id, ruleId);
    return this.#updateRule(project, caller, rule, 0, input);
  }

  async deleteProjectRule(project: ProjectAccess, caller: AuthenticatedCaller, ruleId: number): Promise<void> {
    const rule = await this.projectRule(project.id, ruleId);
    await this.#em.transactional(() =>
      this.#store.deleteRule(rule, {
        events: [reviewEvents.approvalRuleDeleted.event(ruleEventData(project, rule, 0))],
        actor: actorOf(caller),
      }),
    );
  }

  async #updateRule(
    project: ProjectAccess,
    caller: AuthenticatedCaller,
    rule: ApprovalRule,
    iid: number,
    input: Partial<RuleInput>,
  ): Promise<ApprovalRule> {
    const changes: ApprovalRuleChanges = {};
    if (input.name !== undefined) changes.name = input.name;
    if (input.approvalsRequired !== undefined) changes.approvalsRequired = input.approvalsRequired;
    if (input.userIds !== undefined) changes.userIds = [...new Set(input.userIds)];
    if (input.groupIds !== undefined) changes.groupIds = await this.#existingGroups(input.groupIds);
    const protectedBranchIds = await this.#validProtectedBranchIds(project.id, input.protectedBranchIds);
    if (protectedBranchIds !== undefined && rule.mergeRequestId === null) changes.protectedBranchIds = protectedBranchIds;
    return this.#em.transactional(() =>
      this.#store.updateRule(rule, changes, (updated) => ({
        events: [reviewEvents.approvalRuleUpdated.event(ruleEventData(project, updated, iid))],
        actor: actorOf(caller),
      })),
    );
  }

  // Merge request rules

  async mergeRequestRules(mergeRequest: MergeRequest): Promise<ApprovalRule[]> {
    return this.#store.mergeRequestRules(mergeRequest.id);
  }

  async mergeRequestRule(mergeRequest: MergeRequest, ruleId: number): Promise<ApprovalRule> {
    const rule = await this.#store.rule(ruleId);
    if (!rule || rule.mergeRequestId !== mergeRequest.id) throw new NotFoundError();
    return rule;
  }

  /** Whether merge requests of the project may have their own rules, approvers and approvals required. */
  async mayOverrideApprovers(projectId: number): Promise<boolean> {
    return !(await this.#store.settings(projectId)).disableOverridingApproversPerMergeRequest;
  }

  /** GitLab refuses merge request rules and approvers while the project forbids overriding its approvers. */
  async requireOverridable(projectId: number): Promise<void> {
    if (!(await this.mayOverrideApprovers(projectId))) throw new ForbiddenError();
  }

  async createMergeRequestRule(
    project: ProjectAccess,
    caller: AuthenticatedCaller,
    mergeRequest: MergeRequest,
    input: RuleInput & { approvalProjectRuleId?: number | undefined },
  ): Promise<ApprovalRule> {
    await this.requireOverridable(project.id);
    const source = input.approvalProjectRuleId === undefined ? undefined : await this.projectRule(project.id, input.approvalProjectRuleId);
    const rule: NewApprovalRule = {
      projectId: project.id,
      mergeRequestId: mergeRequest.id,
      // A copy takes the project rule's name and approvers; the approvals required are the given ones.
      name: source?.name ?? input.name,
      ruleType: source?.ruleType ?? 'regular',
      approvalsRequired: input.approvalsRequired,
      userIds: source ? source.userIds : [...new Set(input.userIds ?? [])],
      groupIds: source ? source.groupIds : await this.#existingGroups(input.groupIds ?? []),
      protectedBranchIds: [],
      sourceRuleId: source?.id ?? null,
      section: null,
    };
    return this.#em.transactional(() =>
      this.#store.createRule(rule, (created) => ({
        events: [reviewEvents.approvalRuleCreated.event(ruleEventData(project, created, mergeRequest.iid))],
        actor: actorOf(caller),
      })),
    );
  }

  async updateMergeRequestRule(
    project: ProjectAccess,
    caller: AuthenticatedCaller,
    mergeRequest: MergeRequest,
    ruleId: number,
    input: Partial<RuleInput>,
  ): Promise<ApprovalRule> {
    await this.requireOverridable(project.id);
    const rule = await this.mergeRequestRule(mergeRequest, ruleId);
    if (SYSTEM_RULE_TYPES.has(rule.ruleType)) throw prohibited();
    return this.#updateRule(project, caller, rule, mergeRequest.iid, input);
  }

  async deleteMergeRequestRule(
    project: ProjectAccess,
    caller: AuthenticatedCaller,
    mergeRequest: MergeRequest,
    ruleId: number,
  ): Promise<void> {
    await this.requireOverridable(project.id);
    const rule = await this.mergeRequestRule(mergeRequest, ruleId);
    if (SYSTEM_RULE_TYPES.has(rule.ruleType)) throw prohibited();
    await this.#em.transactional(() =>
      this.#store.deleteRule(rule, {
        events: [reviewEvents.approvalRuleDeleted.event(ruleEventData(project, rule, mergeRequest.iid))],
        actor: actorOf(caller),
      }),
    );
  }

  /** The deprecated `PUT .../approvers` of a merge request. */
  async setMergeRequestApprovers(mergeRequest: MergeRequest, approvers: { userIds: number[]; groupIds: number[] }): Promise<void> {
    await this.requireOverridable(mergeRequest.projectId);
    const settings = await this.#store.mergeRequestSettings(mergeRequest.id);
    const approverGroupIds = await this.#existingGroups(approvers.groupIds);
    await this.#em.transactional(() =>
      this.#store.saveMergeRequestSettings({
        ...settings,
        approverIds: [...new Set(approvers.userIds)],
        approverGroupIds,
        updatedAt: new Date(),
      }),
    );
  }

  /** Each rule with its eligible approvers: its users and its groups' direct members, less those who may not approve. */
  async resolve(rules: ApprovalRule[], excluded: ReadonlySet<number>): Promise<ShownRule[]> {
    const groupMembers = await this.#directory.groupMembers([...new Set(rules.flatMap((rule) => rule.groupIds))]);
    const sources = new Map<number, ApprovalRule>();
    for (const id of new Set(rules.map((rule) => rule.sourceRuleId).filter((id): id is number => typeof id === 'number'))) {
      const source = await this.#store.rule(id);
      if (source) sources.set(id, source);
    }
    return rules.map((rule) => ({
      rule,
      eligible: eligibleApprovers({ userIds: rule.userIds, groupIds: rule.groupIds, groupMembers, excluded }),
      source: typeof rule.sourceRuleId === 'number' ? sources.get(rule.sourceRuleId) : undefined,
    }));
  }

  /**
   * Who may not approve the merge request whatever the rules say: its author, unless the project
   * lets authors approve, and its committers when the project forbids them.
   */
  async #excludedApprovers(mergeRequest: MergeRequest, settings: ApprovalSettings): Promise<Set<number>> {
    const excluded = new Set(settings.mergeRequestsAuthorApproval ? [] : [mergeRequest.authorId]);
    if (settings.mergeRequestsDisableCommittersApproval) {
      for (const id of await this.#committers(mergeRequest)) excluded.add(id);
    }
    return excluded;
  }

  /**
   * The users who wrote the commits of the merge request's newest version (merge commits aside, as
   * GitLab), matched by the author and committer emails of those commits.
   */
  async #committers(mergeRequest: MergeRequest): Promise<number[]> {
    const version = await this.#mergeRequests.latestVersion(mergeRequest);
    if (!version) return [];
    const repository = await this.#repositories.ensure(mergeRequest.projectId);
    const commits = await repository.git.log({ head: version.headCommitSha, excluded: [version.baseCommitSha] });
    const emails = commits
      .filter((commit) => commit.parentIds.length <= 1)
      .flatMap((commit) => [commit.authorEmail, commit.committerEmail]);
    return this.#directory.userIdsByCommitEmail([...new Set(emails.map((email) => email.toLowerCase()))]);
  }

  /** What the merge request needs and has: the rules that apply, who approved toward each, and what is left. */
  async state(mergeRequest: MergeRequest): Promise<ApprovalState> {
    const [settings, mergeRequestSettings, ownRules, approvals] = await Promise.all([
      this.#store.settings(mergeRequest.projectId),
      this.#store.mergeRequestSettings(mergeRequest.id),
      this.#store.mergeRequestRules(mergeRequest.id),
      this.#store.approvals(mergeRequest.id),
    ]);
    const codeOwnerRules = ownRules.filter((rule) => rule.ruleType === 'code_owner');
    const overridden = ownRules.filter((rule) => !SYSTEM_RULE_TYPES.has(rule.ruleType));
    const overwritten = overridden.length > 0 && !settings.disableOverridingApproversPerMergeRequest;
    let rules: ApprovalRule[];
    if (overwritten) rules = overridden;
    else {
      const protections = await this.#protectedBranches.list(mergeRequest.projectId);
      const matching = protectionsOf(mergeRequest.targetBranch, protections).map((protection) => protection.id);
      rules = (await this.#store.projectRules(mergeRequest.projectId)).filter((rule) =>
        ruleAppliesToBranch({ protectedBranchIds: rule.protectedBranchIds, matchingProtectedBranchIds: matching }),
      );
    }
    const deprecatedRequired = mergeRequest.approvalsBeforeMerge ?? settings.approvalsBeforeMerge;
    if (rules.length === 0 && deprecatedRequired > 0) {
      const { userIds, groupIds } = ownOrProjectApprovers(settings, mergeRequestSettings);
      rules = [
        anyApproverRule({
          projectId: mergeRequest.projectId,
          mergeRequestId: mergeRequest.id,
          approvalsRequired: deprecatedRequired,
          userIds,
          groupIds,
        }),
      ];
    }
    rules = [...rules, ...codeOwnerRules];
    const excluded = await this.#excludedApprovers(mergeRequest, settings);
    const shown = await this.resolve(rules, excluded);
    const resolved: ResolvedRule[] = shown.map(({ rule, eligible }) => ({
      id: rule.id,
      name: rule.name,
      ruleType: rule.ruleType,
      approvalsRequired: rule.approvalsRequired,
      eligible: rule.ruleType === 'any_approver' && eligible.length === 0 ? 'anyone' : eligible,
    }));
    const approverIds = approvals.map((approval) => approval.userId);
    const states = ruleStates(resolved, approverIds);
    const left = approvalsLeft(states);
    return {
      settings,
      mergeRequestSettings,
      overwritten,
      rules: states.map((state, index) => ({ ...state, shown: shown[index] as ShownRule })),
      approverIds,
      excludedIds: [...excluded],
      approvalsRequired: approvalsRequired(resolved),
      approvalsLeft: left,
      approved: left === 0,
    };
  }

  /** Whether the merge request may be merged as far as approvals go. */
  async isApproved(mergeRequest: MergeRequest): Promise<boolean> {
    return (await this.state(mergeRequest)).approved;
  }

  /**
   * Whether the caller may approve now: not twice, not as the author (or a committer) when the
   * project forbids it; as an eligible approver of a rule that applies, or as a developer while no
   * regular rule holds approving back for its approvers (`mayApprove`).
   */
  canApprove(state: ApprovalState, project: ProjectAccess, caller: AuthenticatedCaller): boolean {
    return mayApprove({
      userId: caller.userId,
      mayUpdate: project.isAdmin || project.accessLevel >= ACCESS_LEVEL.DEVELOPER,
      states: state.rules,
      approverIds: state.approverIds,
      excludedIds: state.excludedIds,
    });
  }

  async approve(options: {
    project: ProjectAccess;
    caller: AuthenticatedCaller;
    mergeRequest: MergeRequest;
    sha?: string | undefined;
    password?: string | undefined;
  }): Promise<ApprovalState> {
    const { project, caller, mergeRequest } = options;
    const state = await this.state(mergeRequest);
    if (mergeRequest.state !== 'opened' || !this.canApprove(state, project, caller)) throw new UnauthorizedError();
    const head = mergeRequest.headSha ?? '';
    if (options.sha !== undefined && options.sha !== head) {
      throw new ConflictError(`SHA does not match HEAD of source branch: ${head}`);
    }
    if (state.settings.requirePasswordToApprove && !(await this.#directory.verifyPassword(caller, options.password ?? ''))) {
      throw new UnauthorizedError();
    }
    const leftAfter = approvalsLeft(
      ruleStates(
        state.rules.map(({ rule }) => rule),
        [...state.approverIds, caller.userId],
      ),
    );
    const added = await this.#em.transactional(() =>
      this.#store.addApproval(
        { mergeRequestId: mergeRequest.id, userId: caller.userId, sha: head, createdAt: new Date() },
        { events: [this.#approvalEvent('approved', mergeRequest, caller.userId, head, leftAfter)], actor: actorOf(caller) },
      ),
    );
    if (!added) throw new UnauthorizedError();
    return this.state(mergeRequest);
  }

  async unapprove(options: { caller: AuthenticatedCaller; mergeRequest: MergeRequest }): Promise<ApprovalState> {
    const { caller, mergeRequest } = options;
    const state = await this.state(mergeRequest);
    if (!state.approverIds.includes(caller.userId)) throw new NotFoundError();
    const leftAfter = approvalsLeft(
      ruleStates(
        state.rules.map(({ rule }) => rule),
        state.approverIds.filter((id) => id !== caller.userId),
      ),
    );
    const removed = await this.#em.transactional(() =>
      this.#store.removeApproval(mergeRequest.id, caller.userId, {
        events: [this.#approvalEvent('unapproved', mergeRequest, caller.userId, mergeRequest.headSha ?? '', leftAfter)],
        actor: actorOf(caller),
      }),
    );
    if (!removed) throw new NotFoundError();
    return this.state(mergeRequest);
  }

  #approvalEvent(kind: 'approved' | 'unapproved', mergeRequest: MergeRequest, userId: number, sha: string, left: number): OutgoingEvent {
    const definition = kind === 'approved' ? reviewEvents.mergeRequestApproved : reviewEvents.mergeRequestUnapproved;
    return definition.event({
      aggregateId: mergeRequest.projectId,
      data: { projectId: mergeRequest.projectId, mergeRequestId: mergeRequest.id, iid: mergeRequest.iid, userId, sha, approvalsLeft: left },
    });
  }

  /**
   * A new diff version: a push to the source resets approvals when the project says so, and the
   * code owner rules follow the files the merge request now changes (and its target's CODEOWNERS).
   */
  async onNewVersion(options: {
    mergeRequest: MergeRequest;
    repository: ProjectRepository;
    version: MergeRequestDiff;
    cause: VersionCause;
  }): Promise<void> {
    const { mergeRequest, repository, version } = options;
    if (options.cause === 'pushed' && (await this.#store.settings(mergeRequest.projectId)).resetApprovalsOnPush) {
      await this.#em.transactional(() => this.#store.resetApprovals(mergeRequest.id));
    }
    await this.syncCodeOwnerRules({ mergeRequest, repository, version });
  }

  /** A push that changed a CODEOWNERS file of a branch changes the code owner rules of the merge requests into it. */
  async onRefsChanged(projectId: number, changes: RefChange[]): Promise<void> {
    const repository = await this.#repositories.ensure(projectId);
    const branches: string[] = [];
    for (const change of changes) {
      if (!change.ref.startsWith(BRANCH_PREFIX) || change.before === ZERO_SHA || change.after === ZERO_SHA) continue;
      if ((await repository.git.changedPaths(change.before, change.after, CODE_OWNERS_PATHS)).length > 0) {
        branches.push(change.ref.slice(BRANCH_PREFIX.length));
      }
    }
    if (branches.length === 0) return;
    for (const mergeRequest of await this.#mergeRequests.openTargeting(projectId, branches)) {
      const version = await this.#mergeRequests.latestVersion(mergeRequest);
      if (version) await this.syncCodeOwnerRules({ mergeRequest, repository, version });
    }
  }

  /**
   * Replaces the merge request's code owner rules with those the CODEOWNERS file of its target
   * branch, as it is now, makes for the files the version changes.
   */
  async syncCodeOwnerRules(options: {
    mergeRequest: MergeRequest;
    repository: ProjectRepository;
    version: MergeRequestDiff;
  }): Promise<void> {
    const { mergeRequest, repository, version } = options;
    const target = (await repository.git.resolveCommit(`${BRANCH_PREFIX}${mergeRequest.targetBranch}`)) ?? version.startCommitSha;
    let content: string | null = null;
    for (const file of CODE_OWNERS_PATHS) {
      content = await repository.git.readFile(target, file);
      if (content !== null) break;
    }
    const entries = content === null ? [] : parseCodeOwners(content);
    if (entries.length === 0) {
      await this.#em.transactional(() => this.#store.replaceCodeOwnerRules(mergeRequest.id, []));
      return;
    }
    const { diffs } = await this.#mergeRequests.versionContents(repository, version);
    const paths = [...new Set(diffs.flatMap((diff) => [diff.newPath, diff.oldPath]))];
    const owning = entriesOwning(entries, paths);
    const names = [...new Set(owning.flatMap(({ entry }) => entry.owners.flatMap((owner) => (owner.kind === 'name' ? [owner.name] : []))))];
    const users = new Map((await this.#directory.usersByUsername(names)).map((user) => [user.username.toLowerCase(), user.id]));
    const groups = new Map<string, number>();
    for (const name of names.filter((candidate) => !users.has(candidate.toLowerCase()))) {
      const group = await this.#directory.group(name);
      if (group) groups.set(name.toLowerCase(), group.id);
    }
    // Owners count only as members of the project.
    const roles = await this.#directory.projectRoles(mergeRequest.projectId, [...users.values()]);
    const protections: BranchProtection[] = protectionsOf(
      mergeRequest.targetBranch,
      await this.#protectedBranches.list(mergeRequest.projectId),
    );
    const required = protections.some((protection) => protection.codeOwnerApprovalRequired);
    const rules: NewApprovalRule[] = owning.map(({ entry }) => {
      const named = entry.owners.flatMap((owner) => (owner.kind === 'name' ? [owner.name.toLowerCase()] : []));
      return {
        projectId: mergeRequest.projectId,
        mergeRequestId: mergeRequest.id,
        name: entry.pattern,
        ruleType: 'code_owner',
        approvalsRequired: required && !entry.optional ? entry.approvalsRequired : 0,
        userIds: named.flatMap((name) => {
          const id = users.get(name);
          return id !== undefined && (roles.get(id)?.accessLevel ?? 0) > 0 ? [id] : [];
        }),
        groupIds: named.flatMap((name) => {
          const id = groups.get(name);
          return id === undefined ? [] : [id];
        }),
        protectedBranchIds: [],
        sourceRuleId: null,
        section: entry.section,
      };
    });
    await this.#em.transactional(() => this.#store.replaceCodeOwnerRules(mergeRequest.id, rules));
  }
}
