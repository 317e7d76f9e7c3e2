import type { EntityManager } from '@platform/db';
import { translateDbError } from '@platform/db';
import type { BranchProtection, ProtectedAction } from './branch-protection.ts';
import { ProtectedBranch, ProtectedBranchAccessLevel } from './protected-branch.entity.ts';

/** What a new protected branch is made of; each action lists the roles allowed it. */
export interface ProtectedBranchInput {
  name: string;
  accessLevels: Record<ProtectedAction, number[]>;
  allowForcePush: boolean;
  codeOwnerApprovalRequired: boolean;
}

export interface ProtectedBranchStore {
  /** A project's protected branches, oldest first. */
  list(projectId: number): Promise<BranchProtection[]>;
  find(projectId: number, name: string): Promise<BranchProtection | null>;
  /** ConflictError when the project protects that name already. */
  create(projectId: number, input: ProtectedBranchInput): Promise<BranchProtection>;
  /** Protects `input.name` unless something protects that exact name already; false then. */
  createIfMissing(projectId: number, input: ProtectedBranchInput): Promise<boolean>;
  update(
    projectId: number,
    name: string,
    changes: {
      allowForcePush?: boolean | undefined;
      codeOwnerApprovalRequired?: boolean | undefined;
      accessLevels?: Partial<Record<ProtectedAction, number[]>>;
    },
  ): Promise<BranchProtection | null>;
  /** False when there was none. */
  delete(projectId: number, name: string): Promise<boolean>;
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
        mine.filter((level) => level.action === action).map((level) => ({ id: level.id, accessLevel: level.accessLevel }));
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
    const em = this.#em.fork();
    return this.#withLevels(em, await em.find(ProtectedBranch, { projectId }, { orderBy: { id: 'asc' } }));
  }

  async find(projectId: number, name: string): Promise<BranchProtection | null> {
    const em = this.#em.fork();
    const branch = await em.findOne(ProtectedBranch, { projectId, name });
    if (!branch) return null;
    const [found] = await this.#withLevels(em, [branch]);
    return found ?? null;
  }

  #addLevels(em: EntityManager, protectedBranchId: number, accessLevels: Partial<Record<ProtectedAction, number[]>>): void {
    for (const action of ACTIONS) {
      for (const accessLevel of accessLevels[action] ?? [])
        em.create(ProtectedBranchAccessLevel, { protectedBranchId, action, accessLevel } as ProtectedBranchAccessLevel);
    }
  }

  async create(projectId: number, input: ProtectedBranchInput): Promise<BranchProtection> {
    try {
      const id = await this.#em.fork().transactional(async (em) => {
        const now = new Date();
        const branch = em.create(ProtectedBranch, {
          projectId,
          name: input.name,
          allowForcePush: input.allowForcePush,
          codeOwnerApprovalRequired: input.codeOwnerApprovalRequired,
          createdAt: now,
          updatedAt: now,
        } as ProtectedBranch);
        await em.flush();
        this.#addLevels(em, branch.id, input.accessLevels);
        await em.flush();
        return branch.id;
      });
      const em = this.#em.fork();
      const [created] = await this.#withLevels(em, [await em.findOneOrFail(ProtectedBranch, { id })]);
      if (!created) throw new Error('the protected branch just created is gone');
      return created;
    } catch (error) {
      throw translateDbError(error, { conflict: `Protected branch '${input.name}' already exists` });
    }
  }

  async createIfMissing(projectId: number, input: ProtectedBranchInput): Promise<boolean> {
    return this.#em.fork().transactional(async (em) => {
      const now = new Date();
      const rows = await em.execute<Array<{ id: string }>>(
        `insert into protected_branches (project_id, name, allow_force_push, code_owner_approval_required, created_at, updated_at)
         values (?, ?, ?, ?, ?, ?) on conflict (project_id, name) do nothing returning id`,
        [projectId, input.name, input.allowForcePush, input.codeOwnerApprovalRequired, now, now],
      );
      const [row] = rows;
      if (!row) return false;
      this.#addLevels(em, Number(row.id), input.accessLevels);
      await em.flush();
      return true;
    });
  }

  async update(
    projectId: number,
    name: string,
    changes: {
      allowForcePush?: boolean | undefined;
      codeOwnerApprovalRequired?: boolean | undefined;
      accessLevels?: Partial<Record<ProtectedAction, number[]>>;
    },
  ): Promise<BranchProtection | null> {
    const found = await this.#em.fork().transactional(async (em) => {
      const branch = await em.findOne(ProtectedBranch, { projectId, name });
      if (!branch) return false;
      if (changes.allowForcePush !== undefined) branch.allowForcePush = changes.allowForcePush;
      if (changes.codeOwnerApprovalRequired !== undefined) branch.codeOwnerApprovalRequired = changes.codeOwnerApprovalRequired;
      branch.updatedAt = new Date();
      const replaced = ACTIONS.filter((action) => changes.accessLevels?.[action] !== undefined);
      if (replaced.length > 0)
        await em.nativeDelete(ProtectedBranchAccessLevel, { protectedBranchId: branch.id, action: { $in: replaced } });
      this.#addLevels(em, branch.id, changes.accessLevels ?? {});
      await em.flush();
      return true;
    });
    return found ? this.find(projectId, name) : null;
  }

  async delete(projectId: number, name: string): Promise<boolean> {
    return (await this.#em.fork().nativeDelete(ProtectedBranch, { projectId, name })) > 0;
  }
}
