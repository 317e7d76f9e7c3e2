import type { EntityManager } from '@platform/db';
import { translateDbError } from '@platform/db';
import type { EventDefinition } from '@platform/events';
import { recordEvent } from '@platform/events/database';
import type { ProtectedBranchChanged } from '@platform/proto/review/v1/events';
import { reviewEvents } from '@platform/review-client';
import type { AccessEntry, BranchProtection, ProtectedAction } from './branch-protection.ts';
import { ProtectedBranch, ProtectedBranchAccessLevel } from './protected-branch.entity.ts';
import { protectedBranchEvent, type ProtectionChange } from './protected-branches.events.ts';

/** What a new protected branch is made of; each action lists the roles, users and groups allowed it. */
export interface ProtectedBranchInput {
  name: string;
  accessLevels: Record<ProtectedAction, AccessEntry[]>;
  allowForcePush: boolean;
  codeOwnerApprovalRequired: boolean;
}

/** Writes record their events in the caller's transaction. */
export interface ProtectedBranchStore {
  /** A project's protected branches, oldest first. */
  list(projectId: number): Promise<BranchProtection[]>;
  find(projectId: number, name: string): Promise<BranchProtection | null>;
  /** ConflictError when the project protects that name already. Each change is recorded as a review event in its transaction. */
  create(change: ProtectionChange, input: ProtectedBranchInput): Promise<BranchProtection>;
  /** Protects `input.name` unless something protects that exact name already; false then. */
  createIfMissing(change: ProtectionChange, input: ProtectedBranchInput): Promise<boolean>;
  update(
    change: ProtectionChange,
    name: string,
    changes: {
      allowForcePush?: boolean | undefined;
      codeOwnerApprovalRequired?: boolean | undefined;
      accessLevels?: Partial<Record<ProtectedAction, AccessEntry[]>>;
    },
  ): Promise<BranchProtection | null>;
  /** False when there was none. */
  delete(change: ProtectionChange, name: string): Promise<boolean>;
}

const ACTIONS: ProtectedAction[] = ['push', 'merge', 'unprotect'];

export class PgProtectedBranchStore implements ProtectedBranchStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  async #withLevels(em: EntityManager, branches: ProtectedBranch[]): Promise<BranchProtection[]> {
    if (branches.length === 0) return [];
    const levels = await em.find(
      ProtectedBranchAccessLevel,
      { protectedBranchId: { $in: branches.map((branch) => branch.id) } },
      { orderBy: { id: 'asc' } },
    );
    return branches.map((branch) => {
      const mine = levels.filter((level) => level.protectedBranchId === branch.id);
      const of = (action: ProtectedAction) =>
        mine
          .filter((level) => level.action === action)
          .map((level) => ({ id: level.id, accessLevel: level.accessLevel, userId: level.userId ?? null, groupId: level.groupId ?? null }));
      return {
        id: branch.id,
        name: branch.name,
        accessLevels: { push: of('push'), merge: of('merge'), unprotect: of('unprotect') },
        allowForcePush: branch.allowForcePush,
        codeOwnerApprovalRequired: branch.codeOwnerApprovalRequired,
      };
    });
  }

  async list(projectId: number): Promise<BranchProtection[]> {
    const em = this.#em;
    return this.#withLevels(em, await em.find(ProtectedBranch, { projectId }, { orderBy: { id: 'asc' } }));
  }

  async find(projectId: number, name: string): Promise<BranchProtection | null> {
    const em = this.#em;
    const branch = await em.findOne(ProtectedBranch, { projectId, name });
    if (!branch) return null;
    const [found] = await this.#withLevels(em, [branch]);
    return found ?? null;
  }

  /** Records `definition`'s event about the branch as it now is in `em`'s transaction. */
  async #record(em: EntityManager, definition: EventDefinition<ProtectedBranchChanged>, change: ProtectionChange, branch: ProtectedBranch) {
    const [protection] = await this.#withLevels(em, [branch]);
    if (protection) recordEvent(em, { ...protectedBranchEvent(definition, change, protection), actor: change.actor });
  }

  #addLevels(em: EntityManager, protectedBranchId: number, accessLevels: Partial<Record<ProtectedAction, AccessEntry[]>>): void {
    for (const action of ACTIONS) {
      for (const entry of accessLevels[action] ?? [])
        em.create(ProtectedBranchAccessLevel, {
          protectedBranchId,
          action,
          accessLevel: entry.accessLevel,
          userId: entry.userId ?? null,
          groupId: entry.groupId ?? null,
        } as ProtectedBranchAccessLevel);
    }
  }

  async create(change: ProtectionChange, input: ProtectedBranchInput): Promise<BranchProtection> {
    const em = this.#em;
    try {
      const now = new Date();
      const branch = em.create(ProtectedBranch, {
        projectId: change.project.id,
        name: input.name,
        allowForcePush: input.allowForcePush,
        codeOwnerApprovalRequired: input.codeOwnerApprovalRequired,
        createdAt: now,
        updatedAt: now,
      } as ProtectedBranch);
      await em.flush();
      this.#addLevels(em, branch.id, input.accessLevels);
      await em.flush();
      await this.#record(em, reviewEvents.protectedBranchCreated, change, branch);
      const [created] = await this.#withLevels(em, [branch]);
      if (!created) throw new Error('the protected branch just created is gone');
      return created;
    } catch (error) {
      throw translateDbError(error, { conflict: `Protected branch '${input.name}' already exists` });
    }
  }

  async createIfMissing(change: ProtectionChange, input: ProtectedBranchInput): Promise<boolean> {
    const em = this.#em;
    const now = new Date();
    const rows = await em.execute<Array<{ id: string }>>(
      `insert into protected_branches (project_id, name, allow_force_push, code_owner_approval_required, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?) on conflict (project_id, name) do nothing returning id`,
      [change.project.id, input.name, input.allowForcePush, input.codeOwnerApprovalRequired, now, now],
    );
    const [row] = rows;
    if (!row) return false;
    this.#addLevels(em, Number(row.id), input.accessLevels);
    await em.flush();
    await this.#record(em, reviewEvents.protectedBranchCreated, change, await em.findOneOrFail(ProtectedBranch, { id: Number(row.id) }));
    return true;
  }

  async update(
    change: ProtectionChange,
    name: string,
    changes: {
      allowForcePush?: boolean | undefined;
      codeOwnerApprovalRequired?: boolean | undefined;
      accessLevels?: Partial<Record<ProtectedAction, AccessEntry[]>>;
    },
  ): Promise<BranchProtection | null> {
    const em = this.#em;
    const branch = await em.findOne(ProtectedBranch, { projectId: change.project.id, name });
    if (!branch) return null;
    if (changes.allowForcePush !== undefined) branch.allowForcePush = changes.allowForcePush;
    if (changes.codeOwnerApprovalRequired !== undefined) branch.codeOwnerApprovalRequired = changes.codeOwnerApprovalRequired;
    branch.updatedAt = new Date();
    const replaced = ACTIONS.filter((action) => changes.accessLevels?.[action] !== undefined);
    if (replaced.length > 0) await em.nativeDelete(ProtectedBranchAccessLevel, { protectedBranchId: branch.id, action: { $in: replaced } });
    this.#addLevels(em, branch.id, changes.accessLevels ?? {});
    await em.flush();
    await this.#record(em, reviewEvents.protectedBranchUpdated, change, branch);
    return this.find(change.project.id, name);
  }

  async delete(change: ProtectionChange, name: string): Promise<boolean> {
    const em = this.#em;
    const branch = await em.findOne(ProtectedBranch, { projectId: change.project.id, name });
    if (!branch) return false;
    // Recorded as it was, levels included, before they go with it.
    await this.#record(em, reviewEvents.protectedBranchDeleted, change, branch);
    await em.nativeDelete(ProtectedBranch, { id: branch.id });
    return true;
  }
}
