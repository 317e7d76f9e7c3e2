import type { EntityManager } from '@platform/db';
import { translateDbError } from '@platform/db';
import { ConflictError, FieldValidationError } from '@platform/errors';
import type { EventActor, OutgoingEvent } from '@platform/events';
import { recordEvent } from '@platform/events/database';
import { Approval, ApprovalRule, ApprovalSettings, MergeRequestApprovalSettings } from './approval.entity.ts';

/** GitLab's project approval settings; a project that never changed them has these. */
export const DEFAULT_APPROVAL_SETTINGS: Omit<ApprovalSettings, 'projectId' | 'updatedAt'> = {
  approvalsBeforeMerge: 0,
  resetApprovalsOnPush: true,
  disableOverridingApproversPerMergeRequest: false,
  mergeRequestsAuthorApproval: false,
  mergeRequestsDisableCommittersApproval: false,
  requirePasswordToApprove: false,
  approverIds: [],
  approverGroupIds: [],
};

export type NewApprovalRule = Omit<ApprovalRule, 'id' | 'createdAt' | 'updatedAt'>;
export type ApprovalRuleChanges = Partial<Pick<ApprovalRule, 'name' | 'approvalsRequired' | 'userIds' | 'groupIds' | 'protectedBranchIds'>>;

/** What a change writes besides itself: the events it caused, and who acted. */
export interface Recorded {
  events: OutgoingEvent[];
  actor: EventActor | null;
}

export interface ApprovalStore {
  settings(projectId: number): Promise<ApprovalSettings>;
  saveSettings(settings: ApprovalSettings): Promise<void>;
  mergeRequestSettings(mergeRequestId: number): Promise<MergeRequestApprovalSettings>;
  saveMergeRequestSettings(settings: MergeRequestApprovalSettings): Promise<void>;
  /** A project's rules, oldest first. */
  projectRules(projectId: number): Promise<ApprovalRule[]>;
  /** A merge request's rules (its own and code owner rules), oldest first. */
  mergeRequestRules(mergeRequestId: number): Promise<ApprovalRule[]>;
  rule(id: number): Promise<ApprovalRule | null>;
  /** A name taken in the same project (or merge request) is a field error, as GitLab's validation. */
  createRule(rule: NewApprovalRule, recorded: (created: ApprovalRule) => Recorded): Promise<ApprovalRule>;
  updateRule(rule: ApprovalRule, changes: ApprovalRuleChanges, recorded: (updated: ApprovalRule) => Recorded): Promise<ApprovalRule>;
  deleteRule(rule: ApprovalRule, recorded: Recorded): Promise<void>;
  /** Replaces a merge request's code owner rules with these. */
  replaceCodeOwnerRules(mergeRequestId: number, rules: NewApprovalRule[]): Promise<void>;
  /** A merge request's approvals, oldest first. */
  approvals(mergeRequestId: number): Promise<Approval[]>;
  /** False when the user had approved already. */
  addApproval(approval: Omit<Approval, 'id'>, recorded: Recorded): Promise<boolean>;
  /** False when the user had not approved. */
  removeApproval(mergeRequestId: number, userId: number, recorded: Recorded): Promise<boolean>;
  /** Removes every approval of the merge request; answers how many there were. */
  resetApprovals(mergeRequestId: number): Promise<number>;
}

const nameTaken = () => new FieldValidationError({ name: ['has already been taken'] });

export class PgApprovalStore implements ApprovalStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  async settings(projectId: number): Promise<ApprovalSettings> {
    const found = await this.#em.findOne(ApprovalSettings, { projectId });
    return found ?? { projectId, ...DEFAULT_APPROVAL_SETTINGS, updatedAt: new Date() };
  }

  async saveSettings(settings: ApprovalSettings): Promise<void> {
    await this.#em.upsert(ApprovalSettings, settings);
  }

  async mergeRequestSettings(mergeRequestId: number): Promise<MergeRequestApprovalSettings> {
    const found = await this.#em.findOne(MergeRequestApprovalSettings, { mergeRequestId });
    return found ?? { mergeRequestId, approverIds: null, approverGroupIds: null, updatedAt: new Date() };
  }

  async saveMergeRequestSettings(settings: MergeRequestApprovalSettings): Promise<void> {
    await this.#em.upsert(MergeRequestApprovalSettings, settings);
  }

  projectRules(projectId: number): Promise<ApprovalRule[]> {
    return this.#em.find(ApprovalRule, { projectId, mergeRequestId: null }, { orderBy: { id: 'asc' } });
  }

  mergeRequestRules(mergeRequestId: number): Promise<ApprovalRule[]> {
    return this.#em.find(ApprovalRule, { mergeRequestId }, { orderBy: { id: 'asc' } });
  }

  rule(id: number): Promise<ApprovalRule | null> {
    return this.#em.findOne(ApprovalRule, { id });
  }

  async createRule(rule: NewApprovalRule, recorded: (created: ApprovalRule) => Recorded): Promise<ApprovalRule> {
    try {
      const em = this.#em;
      const now = new Date();
      const created = em.create(ApprovalRule, { ...rule, createdAt: now, updatedAt: now } as ApprovalRule);
      await em.flush();
      const { events, actor } = recorded(created);
      for (const event of events) recordEvent(em, { ...event, actor });
      return created;
    } catch (error) {
      const translated = translateDbError(error);
      throw translated instanceof ConflictError ? nameTaken() : translated;
    }
  }

  async updateRule(rule: ApprovalRule, changes: ApprovalRuleChanges, recorded: (updated: ApprovalRule) => Recorded): Promise<ApprovalRule> {
    try {
      const em = this.#em;
      const updated = { ...rule, ...changes, updatedAt: new Date() };
      const { id, ...columns } = updated;
      await em.nativeUpdate(ApprovalRule, { id }, columns);
      const { events, actor } = recorded(updated);
      for (const event of events) recordEvent(em, { ...event, actor });
      return updated;
    } catch (error) {
      const translated = translateDbError(error);
      throw translated instanceof ConflictError ? nameTaken() : translated;
    }
  }

  async deleteRule(rule: ApprovalRule, recorded: Recorded): Promise<void> {
    const em = this.#em;
    await em.nativeDelete(ApprovalRule, { id: rule.id });
    for (const event of recorded.events) recordEvent(em, { ...event, actor: recorded.actor });
  }

  async replaceCodeOwnerRules(mergeRequestId: number, rules: NewApprovalRule[]): Promise<void> {
    const em = this.#em;
    await em.nativeDelete(ApprovalRule, { mergeRequestId, ruleType: 'code_owner' });
    const now = new Date();
    for (const rule of rules) em.create(ApprovalRule, { ...rule, createdAt: now, updatedAt: now } as ApprovalRule);
    await em.flush();
  }

  approvals(mergeRequestId: number): Promise<Approval[]> {
    return this.#em.find(Approval, { mergeRequestId }, { orderBy: { id: 'asc' } });
  }

  async addApproval(approval: Omit<Approval, 'id'>, recorded: Recorded): Promise<boolean> {
    const em = this.#em;
    const rows = await em.execute<Array<{ id: string }>>(
      `insert into approvals (merge_request_id, user_id, sha, created_at) values (?, ?, ?, ?)
       on conflict (merge_request_id, user_id) do nothing returning id`,
      [approval.mergeRequestId, approval.userId, approval.sha, approval.createdAt],
    );
    if (rows.length === 0) return false;
    for (const event of recorded.events) recordEvent(em, { ...event, actor: recorded.actor });
    return true;
  }

  async removeApproval(mergeRequestId: number, userId: number, recorded: Recorded): Promise<boolean> {
    const em = this.#em;
    if ((await em.nativeDelete(Approval, { mergeRequestId, userId })) === 0) return false;
    for (const event of recorded.events) recordEvent(em, { ...event, actor: recorded.actor });
    return true;
  }

  resetApprovals(mergeRequestId: number): Promise<number> {
    return this.#em.nativeDelete(Approval, { mergeRequestId });
  }
}
