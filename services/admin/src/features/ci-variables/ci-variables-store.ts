import { FlushMode, LockMode } from '@mikro-orm/core';
import { FieldValidationError } from '@platform/errors';
import { findPage, type EntityManager, type Page, type PageWindow } from '@platform/db';
import type { EventActor, OutgoingEvent } from '@platform/events';
import { recordEvent } from '@platform/events/database';
import { CiVariable, type VariableOwner } from './ci-variable.entity.ts';

/**
 * An owner's variables serialise their writes on an advisory lock, so the count limit and the
 * key's uniqueness hold under concurrent creates: the instance's on this key, a project's or a
 * group's on their kind and id.
 */
const VARIABLES_LOCK = 7_401;
const OWNER_LOCK_KINDS = { instance: 0, project: 1, group: 2 } as const;
const lockKeyOf = (owner: VariableOwner): number =>
  owner.type === 'instance' ? VARIABLES_LOCK : OWNER_LOCK_KINDS[owner.type] * 2 ** 32 + owner.id;

export type NewCiVariable = Omit<CiVariable, 'id'>;

/** The variables of `owner` with this key, in one environment scope when it is given. */
export interface VariableSelector {
  owner: VariableOwner;
  key: string;
  environmentScope?: string | undefined;
}

export interface CiVariableStore {
  list(owner: VariableOwner, window: PageWindow): Promise<Page<CiVariable>>;
  find(selector: VariableSelector): Promise<CiVariable[]>;
  /**
   * Adds the variable and its events, in the caller's transaction; `check` runs first, told how
   * many variables its owner has and whether its key and scope are taken, with other writes held off.
   */
  create(options: {
    variable: NewCiVariable;
    check(state: { count: number; taken: boolean }): void;
    events(created: CiVariable): OutgoingEvent[];
    actor: EventActor;
  }): Promise<CiVariable>;
  /**
   * In the caller's transaction, `change` is given the variables `selector` finds (none: null),
   * changes one (or refuses) and answers it with its events. A key and scope another variable of
   * the owner has is GitLab's "has already been taken".
   */
  update(options: {
    selector: VariableSelector;
    change(variables: CiVariable[]): { changed: CiVariable; events: OutgoingEvent[] };
    actor: EventActor;
  }): Promise<CiVariable | null>;
  /** Deletes the one variable `selector` finds; `pick` chooses it among the matches or refuses. */
  delete(options: {
    selector: VariableSelector;
    pick(variables: CiVariable[]): CiVariable | null;
    events(deleted: CiVariable): OutgoingEvent[];
    actor: EventActor;
  }): Promise<CiVariable | null>;
}

const whereOf = (selector: VariableSelector) => ({
  ownerType: selector.owner.type,
  ownerId: selector.owner.id,
  key: selector.key,
  ...(selector.environmentScope === undefined ? {} : { environmentScope: selector.environmentScope }),
});

export class PgCiVariableStore implements CiVariableStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  list(owner: VariableOwner, window: PageWindow): Promise<Page<CiVariable>> {
    return findPage(this.#em, CiVariable, { ownerType: owner.type, ownerId: owner.id }, { orderBy: { id: 'asc' }, window });
  }

  find(selector: VariableSelector): Promise<CiVariable[]> {
    return this.#em.find(CiVariable, whereOf(selector), { orderBy: { id: 'asc' } });
  }

  async create(options: {
    variable: NewCiVariable;
    check(state: { count: number; taken: boolean }): void;
    events(created: CiVariable): OutgoingEvent[];
    actor: EventActor;
  }): Promise<CiVariable> {
    const em = this.#em;
    const { variable } = options;
    const owner = { type: variable.ownerType, id: variable.ownerId };
    await em.execute('select pg_advisory_xact_lock(?)', [lockKeyOf(owner)]);
    options.check({
      count: await em.count(CiVariable, { ownerType: owner.type, ownerId: owner.id }),
      taken: (await em.count(CiVariable, whereOf({ owner, key: variable.key, environmentScope: variable.environmentScope }))) > 0,
    });
    const created = em.create(CiVariable, variable);
    await em.flush();
    for (const event of options.events(created)) recordEvent(em, { ...event, actor: options.actor });
    return created;
  }

  async update(options: {
    selector: VariableSelector;
    change(variables: CiVariable[]): { changed: CiVariable; events: OutgoingEvent[] };
    actor: EventActor;
  }): Promise<CiVariable | null> {
    const em = this.#em;
    const { owner } = options.selector;
    await em.execute('select pg_advisory_xact_lock(?)', [lockKeyOf(owner)]);
    const variables = await em.find(CiVariable, whereOf(options.selector), {
      orderBy: { id: 'asc' },
      lockMode: LockMode.PESSIMISTIC_WRITE,
    });
    if (variables.length === 0) return null;
    const { changed, events } = options.change(variables);
    const taken = await em.count(
      CiVariable,
      {
        ...whereOf({ owner, key: changed.key, environmentScope: changed.environmentScope }),
        id: { $ne: changed.id },
      },
      { flushMode: FlushMode.COMMIT },
    );
    if (taken > 0) throw new FieldValidationError({ key: [`(${changed.key}) has already been taken`] });
    for (const event of events) recordEvent(em, { ...event, actor: options.actor });
    return changed;
  }

  async delete(options: {
    selector: VariableSelector;
    pick(variables: CiVariable[]): CiVariable | null;
    events(deleted: CiVariable): OutgoingEvent[];
    actor: EventActor;
  }): Promise<CiVariable | null> {
    const em = this.#em;
    await em.execute('select pg_advisory_xact_lock(?)', [lockKeyOf(options.selector.owner)]);
    const variable = options.pick(await em.find(CiVariable, whereOf(options.selector), { orderBy: { id: 'asc' } }));
    if (!variable) return null;
    em.remove(variable);
    for (const event of options.events(variable)) recordEvent(em, { ...event, actor: options.actor });
    return variable;
  }
}
