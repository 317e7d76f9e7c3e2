import { actorOf, type AuthenticatedCaller } from '@platform/auth';
import type { EntityManager, Page, PageWindow } from '@platform/db';
import { deliveryEvents } from '@platform/delivery-client';
import { ConflictError, InvalidRecordError, NotFoundError, UnprocessableError } from '@platform/errors';
import type { ProjectAccess } from '@platform/identity-client';
import type { ClientAnswerChanges } from './client-answer-changes.ts';
import type { StrategyName } from './feature-flag.entity.ts';
import type { ChangedStrategyInput, NewStrategyInput } from './feature-flags.schemas.ts';
import type { DesiredStrategy, DetailedFlag, PgFeatureFlagStore } from './feature-flags-store.ts';
import { featureFlagNameProblems, strategyProblems } from './strategy-rules.ts';
import type { PgUserListStore } from './user-lists-store.ts';

/** `gradualRolloutUserId(production,staging)`: a strategy as events and comparisons name it. */
const describedStrategies = (detail: DetailedFlag) =>
  detail.strategies.map(
    ({ strategy, scopes }) =>
      `${strategy.name}${JSON.stringify(strategy.parameters)}${strategy.userListId ?? ''}(${scopes.map((scope) => scope.environmentScope).join(',')})`,
  );

function eventData(project: ProjectAccess, detail: DetailedFlag, previousName = '') {
  return {
    projectId: project.id,
    projectPath: project.pathWithNamespace,
    featureFlagId: detail.flag.id,
    name: detail.flag.name,
    description: detail.flag.description ?? '',
    active: detail.flag.active,
    version: detail.flag.version,
    previousName,
    strategies: detail.strategies.map(
      ({ strategy, scopes }) => `${strategy.name}(${scopes.map((scope) => scope.environmentScope).join(',')})`,
    ),
  };
}

/** A legacy flag's one scope: on everywhere (`*`) as the flag is, with the default strategy. */
const DEFAULT_LEGACY_SCOPE = { environmentScope: '*', strategies: [{ name: 'default', parameters: {} }] };

export class FeatureFlagsService {
  readonly #em: EntityManager;
  readonly #store: PgFeatureFlagStore;
  readonly #userLists: PgUserListStore;
  readonly #changes: ClientAnswerChanges;

  constructor(deps: { em: EntityManager; store: PgFeatureFlagStore; userLists: PgUserListStore; changes: ClientAnswerChanges }) {
    this.#em = deps.em;
    this.#store = deps.store;
    this.#userLists = deps.userLists;
    this.#changes = deps.changes;
  }

  list(project: ProjectAccess, options: { scope?: 'enabled' | 'disabled' | undefined; window: PageWindow }): Promise<Page<DetailedFlag>> {
    const active = options.scope === undefined ? undefined : options.scope === 'enabled';
    return this.#store.list(project.id, { active, window: options.window });
  }

  async get(project: ProjectAccess, name: string): Promise<DetailedFlag> {
    const detail = await this.#store.get(project.id, name);
    if (!detail) throw new NotFoundError('Feature Flag');
    return detail;
  }

  /** Without `version` (or with `legacy_flag`), a legacy flag with the default `*` scope, as GitLab makes it. */
  async create(
    project: ProjectAccess,
    input: {
      name: string;
      version?: 'new_version_flag' | 'legacy_flag' | undefined;
      description?: string | null | undefined;
      active: boolean;
      strategies: NewStrategyInput[];
      caller: AuthenticatedCaller;
    },
  ): Promise<DetailedFlag> {
    const version = input.version ?? 'legacy_flag';
    const strategies: DesiredStrategy[] =
      version === 'new_version_flag'
        ? input.strategies.map((strategy) => ({
            name: strategy.name as StrategyName,
            parameters: strategy.parameters as Record<string, string>,
            userListId: strategy.user_list_id ?? null,
            scopes: strategy.scopes.map((scope) => ({ environmentScope: scope.environment_scope })),
          }))
        : [];
    await this.#check(project, input.name, strategies);
    try {
      const created = await this.#em.transactional(() =>
        this.#store.create({
          flag: { projectId: project.id, name: input.name, description: input.description ?? null, active: input.active, version },
          strategies,
          legacyScopes: version === 'legacy_flag' ? [{ ...DEFAULT_LEGACY_SCOPE, active: input.active }] : [],
          events: (created) => [deliveryEvents.featureFlagCreated.event({ aggregateId: project.id, data: eventData(project, created) })],
          actor: actorOf(input.caller),
        }),
      );
      this.#changes.changed(project.id);
      return created;
    } catch (error) {
      if (error instanceof ConflictError) throw new InvalidRecordError([error.message]);
      throw error;
    }
  }

  /**
   * Changes a new-version flag: strategies and scopes named by `id` change (or go, with
   * `_destroy`), those without one are added, the rest stay.
   */
  async update(
    project: ProjectAccess,
    name: string,
    input: {
      name?: string | undefined;
      description?: string | null | undefined;
      active?: boolean | undefined;
      strategies?: ChangedStrategyInput[] | undefined;
      caller: AuthenticatedCaller;
    },
  ): Promise<DetailedFlag> {
    const current = await this.get(project, name);
    if (current.flag.version === 'legacy_flag') throw new UnprocessableError('PUT operations are not supported for legacy feature flags');
    const strategies = applyStrategyChanges(current, input.strategies ?? []);
    const newName = input.name ?? current.flag.name;
    await this.#check(project, newName, strategies);
    try {
      const updated = await this.#em.transactional(() =>
        this.#store.update({
          target: current.flag,
          fields: {
            name: newName,
            description: input.description === undefined ? current.flag.description : input.description,
            active: input.active ?? current.flag.active,
          },
          strategies,
          events: (before, after) => {
            const toggled = before.flag.active !== after.flag.active;
            const changed =
              before.flag.name !== after.flag.name ||
              before.flag.description !== after.flag.description ||
              JSON.stringify(describedStrategies(before)) !== JSON.stringify(describedStrategies(after));
            const previousName = before.flag.name === after.flag.name ? '' : before.flag.name;
            const data = eventData(project, after, previousName);
            return [
              ...(toggled ? [deliveryEvents.featureFlagToggled.event({ aggregateId: project.id, data })] : []),
              ...(changed ? [deliveryEvents.featureFlagUpdated.event({ aggregateId: project.id, data })] : []),
            ];
          },
          actor: actorOf(input.caller),
        }),
      );
      this.#changes.changed(project.id);
      return updated;
    } catch (error) {
      if (error instanceof ConflictError) throw new InvalidRecordError([error.message]);
      throw error;
    }
  }

  async delete(project: ProjectAccess, name: string, caller: AuthenticatedCaller): Promise<DetailedFlag> {
    const detail = await this.get(project, name);
    await this.#em.transactional(() =>
      this.#store.delete(detail.flag, {
        events: [deliveryEvents.featureFlagDeleted.event({ aggregateId: project.id, data: eventData(project, detail) })],
        actor: actorOf(caller),
      }),
    );
    this.#changes.changed(project.id);
    return detail;
  }

  /** GitLab's validations of a flag's name and strategies, user lists of this project included. */
  async #check(project: ProjectAccess, name: string, strategies: DesiredStrategy[]): Promise<void> {
    const problems = featureFlagNameProblems(name);
    for (const strategy of strategies) {
      problems.push(
        ...strategyProblems({
          name: strategy.name,
          parameters: strategy.parameters,
          userListId: strategy.userListId ?? undefined,
          scopes: strategy.scopes.map((scope) => scope.environmentScope),
        }),
      );
      if (strategy.userListId !== null && !(await this.#userLists.byId(project.id, strategy.userListId))) {
        problems.push('Strategies user list must belong to the same project');
      }
    }
    if (problems.length > 0) throw new InvalidRecordError([...new Set(problems)]);
  }
}

/** The strategies a flag should have once `changes` (GitLab's nested attributes) apply to `current`. */
function applyStrategyChanges(current: DetailedFlag, changes: ChangedStrategyInput[]): DesiredStrategy[] {
  const desired: DesiredStrategy[] = current.strategies.map(({ strategy, scopes }) => ({
    id: strategy.id,
    name: strategy.name,
    parameters: strategy.parameters,
    userListId: strategy.userListId ?? null,
    scopes: scopes.map((scope) => ({ id: scope.id, environmentScope: scope.environmentScope })),
  }));
  for (const change of changes) {
    if (change.id === undefined) {
      if (change._destroy) continue;
      desired.push({
        name: (change.name ?? '') as StrategyName,
        parameters: (change.parameters ?? {}) as Record<string, string>,
        userListId: change.user_list_id ?? null,
        scopes: (change.scopes ?? [])
          .filter((scope) => !scope._destroy)
          .map((scope) => ({ environmentScope: scope.environment_scope ?? '' })),
      });
      continue;
    }
    const index = desired.findIndex((strategy) => strategy.id === change.id);
    if (index === -1) throw new NotFoundError('Strategy');
    if (change._destroy) {
      desired.splice(index, 1);
      continue;
    }
    const strategy = desired[index]!;
    if (change.name !== undefined) strategy.name = change.name as StrategyName;
    if (change.parameters !== undefined) strategy.parameters = change.parameters as Record<string, string>;
    if (change.user_list_id !== undefined) strategy.userListId = change.user_list_id;
    else if (change.name !== undefined && change.name !== 'svcUserList') strategy.userListId = null;
    for (const scopeChange of change.scopes ?? []) {
      if (scopeChange.id === undefined) {
        if (!scopeChange._destroy) strategy.scopes.push({ environmentScope: scopeChange.environment_scope ?? '' });
        continue;
      }
      const scopeIndex = strategy.scopes.findIndex((scope) => scope.id === scopeChange.id);
      if (scopeIndex === -1) throw new NotFoundError('Scope');
      if (scopeChange._destroy) strategy.scopes.splice(scopeIndex, 1);
      else if (scopeChange.environment_scope !== undefined) strategy.scopes[scopeIndex]!.environmentScope = scopeChange.environment_scope;
    }
  }
  return desired;
}
