import { FieldValidationError } from '@platform/errors';
import type { WrittenEvent } from '../merge-requests/fake-merge-requests-store.ts';
import type { Approval, ApprovalRule, ApprovalSettings, MergeRequestApprovalSettings } from './approval.entity.ts';
import {
  DEFAULT_APPROVAL_SETTINGS,
  type ApprovalRuleChanges,
  type ApprovalStore,
  type NewApprovalRule,
  type Recorded,
} from './approvals-store.ts';

const nameTaken = () => new FieldValidationError({ name: ['has already been taken'] });

/**
 * Approval settings, rules and approvals in memory, for unit tests: each read answers a copy, as a
 * fresh unit of work would; `events` keeps what changes wrote. Rule names are unique as the tables'
 * indexes make them: per project among project rules, per merge request and section among its own.
 */
export class FakeApprovalStore implements ApprovalStore {
  readonly #settings = new Map<number, ApprovalSettings>();
  readonly #mergeRequestSettings = new Map<number, MergeRequestApprovalSettings>();
  readonly #rules = new Map<number, ApprovalRule>();
  #approvals: Approval[] = [];
  readonly events: WrittenEvent[] = [];
  #nextId = 1;

  #write(recorded: Recorded): void {
    for (const event of recorded.events) this.events.push({ type: event.type, data: event.data, actor: recorded.actor });
  }

  #rulesWhere(filter: (rule: ApprovalRule) => boolean): ApprovalRule[] {
    return [...this.#rules.values()]
      .filter(filter)
      .sort((a, b) => a.id - b.id)
      .map((rule) => structuredClone(rule));
  }

  #nameTaken(rule: Pick<ApprovalRule, 'id' | 'projectId' | 'mergeRequestId' | 'name' | 'section'>): boolean {
    return [...this.#rules.values()].some(
      (other) =>
        other.id !== rule.id &&
        other.name === rule.name &&
        (rule.mergeRequestId === null
          ? other.mergeRequestId === null && other.projectId === rule.projectId
          : other.mergeRequestId === rule.mergeRequestId && (other.section ?? null) === (rule.section ?? null)),
    );
  }

  async settings(projectId: number): Promise<ApprovalSettings> {
    return structuredClone(this.#settings.get(projectId) ?? { projectId, ...DEFAULT_APPROVAL_SETTINGS, updatedAt: new Date() });
  }

  async saveSettings(settings: ApprovalSettings): Promise<void> {
    this.#settings.set(settings.projectId, structuredClone(settings));
  }

  async mergeRequestSettings(mergeRequestId: number): Promise<MergeRequestApprovalSettings> {
    const found = this.#mergeRequestSettings.get(mergeRequestId);
    return structuredClone(found ?? { mergeRequestId, approverIds: null, approverGroupIds: null, updatedAt: new Date() });
  }

  async saveMergeRequestSettings(settings: MergeRequestApprovalSettings): Promise<void> {
    this.#mergeRequestSettings.set(settings.mergeRequestId, structuredClone(settings));
  }

  async projectRules(projectId: number): Promise<ApprovalRule[]> {
    return this.#rulesWhere((rule) => rule.projectId === projectId && rule.mergeRequestId === null);
  }

  async mergeRequestRules(mergeRequestId: number): Promise<ApprovalRule[]> {
    return this.#rulesWhere((rule) => rule.mergeRequestId === mergeRequestId);
  }

  async rule(id: number): Promise<ApprovalRule | null> {
    const found = this.#rules.get(id);
    return found ? structuredClone(found) : null;
  }

  async createRule(rule: NewApprovalRule, recorded: (created: ApprovalRule) => Recorded): Promise<ApprovalRule> {
    const now = new Date();
    const created: ApprovalRule = { ...structuredClone(rule), id: this.#nextId++, createdAt: now, updatedAt: now };
    if (this.#nameTaken(created)) throw nameTaken();
    this.#rules.set(created.id, created);
    this.#write(recorded(structuredClone(created)));
    return structuredClone(created);
  }

  async updateRule(rule: ApprovalRule, changes: ApprovalRuleChanges, recorded: (updated: ApprovalRule) => Recorded): Promise<ApprovalRule> {
    const updated: ApprovalRule = { ...structuredClone(rule), ...structuredClone(changes), updatedAt: new Date() };
    if (this.#nameTaken(updated)) throw nameTaken();
    this.#rules.set(updated.id, updated);
    this.#write(recorded(structuredClone(updated)));
    return structuredClone(updated);
  }

  async deleteRule(rule: ApprovalRule, recorded: Recorded): Promise<void> {
    this.#rules.delete(rule.id);
    this.#write(recorded);
  }

  async replaceCodeOwnerRules(mergeRequestId: number, rules: NewApprovalRule[]): Promise<void> {
    for (const old of this.#rulesWhere((rule) => rule.mergeRequestId === mergeRequestId && rule.ruleType === 'code_owner')) {
      this.#rules.delete(old.id);
    }
    const now = new Date();
    for (const rule of rules) {
      const created: ApprovalRule = { ...structuredClone(rule), id: this.#nextId++, createdAt: now, updatedAt: now };
      this.#rules.set(created.id, created);
    }
  }

  async approvals(mergeRequestId: number): Promise<Approval[]> {
    return this.#approvals.filter((approval) => approval.mergeRequestId === mergeRequestId).map((approval) => structuredClone(approval));
  }

  async addApproval(approval: Omit<Approval, 'id'>, recorded: Recorded): Promise<boolean> {
    const given = this.#approvals.some((other) => other.mergeRequestId === approval.mergeRequestId && other.userId === approval.userId);
    if (given) return false;
    this.#approvals.push({ ...structuredClone(approval), id: this.#nextId++ });
    this.#write(recorded);
    return true;
  }

  async removeApproval(mergeRequestId: number, userId: number, recorded: Recorded): Promise<boolean> {
    const kept = this.#approvals.filter((approval) => approval.mergeRequestId !== mergeRequestId || approval.userId !== userId);
    if (kept.length === this.#approvals.length) return false;
    this.#approvals = kept;
    this.#write(recorded);
    return true;
  }

  async resetApprovals(mergeRequestId: number): Promise<number> {
    const kept = this.#approvals.filter((approval) => approval.mergeRequestId !== mergeRequestId);
    const removed = this.#approvals.length - kept.length;
    this.#approvals = kept;
    return removed;
  }
}
