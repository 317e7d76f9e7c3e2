import { LockMode, type FilterQuery } from '@mikro-orm/core';
import { findPage, translateDbError, type EntityManager, type Page, type PageWindow } from '@platform/db';
import type { EventActor, OutgoingEvent } from '@platform/events';
import { recordEvent } from '@platform/events/database';
import {
  FeatureFlag,
  FeatureFlagLegacyScope,
  FeatureFlagScope,
  FeatureFlagStrategy,
  FeatureFlagUserList,
  type StrategyName,
} from './feature-flag.entity.ts';

/** A strategy with its scopes and, for `svcUserList`, its user list. */
export interface DetailedStrategy {
  strategy: FeatureFlagStrategy;
  scopes: FeatureFlagScope[];
  userList: FeatureFlagUserList | null;
}

/** A flag with everything its views show. */
export interface DetailedFlag {
  flag: FeatureFlag;
  strategies: DetailedStrategy[];
  legacyScopes: FeatureFlagLegacyScope[];
}

/** The strategies a flag should have after a change: `id` keeps (and updates) a strategy or scope, none creates one. */
export interface DesiredStrategy {
  id?: number | undefined;
  name: StrategyName;
  parameters: Record<string, string>;
  userListId: number | null;
  scopes: Array<{ id?: number | undefined; environmentScope: string }>;
}

export type FlagFields = Pick<FeatureFlag, 'name' | 'description' | 'active'>;

export const FLAG_NAME_TAKEN = 'Name has already been taken';

/**
 * Gives what the project's Unleash clients are answered a new revision, in the transaction of
 * `em` that changes it: that transaction's id, unique and never reused, so a cached answer is
 * current exactly while its revision is.
 */
export async function touchFlagsRevision(em: EntityManager, projectId: number): Promise<void> {
  await em.execute(
    `insert into feature_flag_revisions (project_id, revision) values (?, pg_current_xact_id()::text::bigint)
     on conflict (project_id) do update set revision = excluded.revision`,
    [projectId],
  );
}

export class PgFeatureFlagStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  async list(projectId: number, options: { active?: boolean | undefined; window: PageWindow }): Promise<Page<DetailedFlag>> {
    const where: FilterQuery<FeatureFlag> = { projectId };
    if (options.active !== undefined) where.active = options.active;
    const em = this.#em;
    const page = await findPage(em, FeatureFlag, where, { orderBy: { id: 'asc' }, window: options.window });
    return { ...page, items: await detailsOf(em, page.items) };
  }

  async get(projectId: number, name: string): Promise<DetailedFlag | null> {
    const em = this.#em;
    const flag = await em.findOne(FeatureFlag, { projectId, name });
    return flag ? (await detailsOf(em, [flag]))[0]! : null;
  }

  /** Every new-version flag of a project with its details, in id order, for Unleash clients. */
  async allCurrent(projectId: number): Promise<DetailedFlag[]> {
    const em = this.#em;
    const flags = await em.find(FeatureFlag, { projectId, version: 'new_version_flag' }, { orderBy: { id: 'asc' } });
    return detailsOf(em, flags);
  }

  async create(options: {
    flag: FlagFields & Pick<FeatureFlag, 'projectId' | 'version'>;
    strategies: DesiredStrategy[];
    legacyScopes: Array<Pick<FeatureFlagLegacyScope, 'environmentScope' | 'active' | 'strategies'>>;
    events: (created: DetailedFlag) => OutgoingEvent[];
    actor: EventActor | null;
  }): Promise<DetailedFlag> {
    const em = this.#em;
    try {
      const now = new Date();
      const flag = em.create(FeatureFlag, { ...options.flag, createdAt: now, updatedAt: now });
      await em.flush();
      for (const scope of options.legacyScopes) {
        em.create(FeatureFlagLegacyScope, { ...scope, featureFlagId: flag.id, createdAt: now, updatedAt: now });
      }
      await saveStrategies(em, flag.id, options.strategies);
      await touchFlagsRevision(em, flag.projectId);
      const [created] = await detailsOf(em, [flag]);
      for (const event of options.events(created!)) recordEvent(em, { ...event, actor: options.actor });
      return created!;
    } catch (error) {
      throw translateDbError(error, { conflict: FLAG_NAME_TAKEN });
    }
  }

  /** Sets the flag's fields and makes its strategies exactly `strategies`. */
  async update(options: {
    target: FeatureFlag;
    fields: FlagFields;
    strategies: DesiredStrategy[];
    events: (before: DetailedFlag, after: DetailedFlag) => OutgoingEvent[];
    actor: EventActor | null;
  }): Promise<DetailedFlag> {
    const em = this.#em;
    try {
      const flag = await em.findOneOrFail(FeatureFlag, { id: options.target.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      const [before] = await detailsOf(em, [flag]);
      const snapshot = copyOf(before!);
      em.assign(flag, { ...options.fields, updatedAt: new Date() });
      await em.flush();
      await saveStrategies(em, flag.id, options.strategies);
      await touchFlagsRevision(em, flag.projectId);
      const [after] = await detailsOf(em, [flag]);
      for (const event of options.events(snapshot, after!)) recordEvent(em, { ...event, actor: options.actor });
      return after!;
    } catch (error) {
      throw translateDbError(error, { conflict: FLAG_NAME_TAKEN });
    }
  }

  async delete(target: FeatureFlag, options: { events: OutgoingEvent[]; actor: EventActor | null }): Promise<void> {
    const em = this.#em;
    await em.nativeDelete(FeatureFlag, { id: target.id });
    await touchFlagsRevision(em, target.projectId);
    for (const event of options.events) recordEvent(em, { ...event, actor: options.actor });
  }
}

/**
 * The flag as it is now, in copies: reading it again in the same unit of work refreshes the
 * managed entities in place, which would leave no difference between before and after.
 */
function copyOf(detail: DetailedFlag): DetailedFlag {
  return {
    flag: { ...detail.flag },
    strategies: detail.strategies.map(({ strategy, scopes, userList }) => ({
      strategy: { ...strategy, parameters: { ...strategy.parameters } },
      scopes: scopes.map((scope) => ({ ...scope })),
      userList: userList && { ...userList },
    })),
    legacyScopes: detail.legacyScopes.map((scope) => ({ ...scope })),
  };
}

/** Makes the strategies of flag `flagId` exactly `desired`: unnamed ones go, named ones change, new ones come. */
async function saveStrategies(em: EntityManager, flagId: number, desired: DesiredStrategy[]): Promise<void> {
  const existing = await em.find(FeatureFlagStrategy, { featureFlagId: flagId });
  const kept = new Set(desired.flatMap((strategy) => (strategy.id === undefined ? [] : [strategy.id])));
  const removed = existing.filter((strategy) => !kept.has(strategy.id)).map((strategy) => strategy.id);
  if (removed.length > 0) await em.nativeDelete(FeatureFlagStrategy, { id: { $in: removed } });
  for (const wanted of desired) {
    const fields = { name: wanted.name, parameters: wanted.parameters, userListId: wanted.userListId };
    let strategyId: number;
    if (wanted.id === undefined) {
      const created = em.create(FeatureFlagStrategy, { ...fields, featureFlagId: flagId });
      await em.flush();
      strategyId = created.id;
    } else {
      await em.nativeUpdate(FeatureFlagStrategy, { id: wanted.id, featureFlagId: flagId }, fields);
      strategyId = wanted.id;
    }
    const scopeIds = new Set(wanted.scopes.flatMap((scope) => (scope.id === undefined ? [] : [scope.id])));
    await em.nativeDelete(FeatureFlagScope, scopeIds.size === 0 ? { strategyId } : { strategyId, id: { $nin: [...scopeIds] } });
    for (const scope of wanted.scopes) {
      if (scope.id === undefined) em.create(FeatureFlagScope, { strategyId, environmentScope: scope.environmentScope });
      else await em.nativeUpdate(FeatureFlagScope, { id: scope.id, strategyId }, { environmentScope: scope.environmentScope });
    }
    await em.flush();
  }
}

/** The details of `flags`, in their order, in four queries whatever their number. */
async function detailsOf(em: EntityManager, flags: FeatureFlag[]): Promise<DetailedFlag[]> {
  if (flags.length === 0) return [];
  const flagIds = flags.map((flag) => flag.id);
  const strategies = await em.find(FeatureFlagStrategy, { featureFlagId: { $in: flagIds } }, { orderBy: { id: 'asc' } });
  const strategyIds = strategies.map((strategy) => strategy.id);
  const scopes =
    strategyIds.length === 0 ? [] : await em.find(FeatureFlagScope, { strategyId: { $in: strategyIds } }, { orderBy: { id: 'asc' } });
  const listIds = strategies.flatMap((strategy) =>
    strategy.userListId === null || strategy.userListId === undefined ? [] : [strategy.userListId],
  );
  const lists = listIds.length === 0 ? [] : await em.find(FeatureFlagUserList, { id: { $in: listIds } });
  const legacy = await em.find(FeatureFlagLegacyScope, { featureFlagId: { $in: flagIds } }, { orderBy: { id: 'asc' } });
  return flags.map((flag) => ({
    flag,
    strategies: strategies
      .filter((strategy) => strategy.featureFlagId === flag.id)
      .map((strategy) => ({
        strategy,
        scopes: scopes.filter((scope) => scope.strategyId === strategy.id),
        userList: lists.find((list) => list.id === strategy.userListId) ?? null,
      })),
    legacyScopes: legacy.filter((scope) => scope.featureFlagId === flag.id),
  }));
}
