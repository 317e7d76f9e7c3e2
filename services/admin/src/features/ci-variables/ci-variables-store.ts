import { LockMode } from '@mikro-orm/core';
import { findPage, type EntityManager, type Page, type PageWindow } from '@platform/db';
import { recordEvent, type EventActor, type OutgoingEvent } from '@platform/events';
import { CiVariable } from './ci-variable.entity.ts';

/** Instance variables serialise their writes on this advisory lock, so the count limit holds under concurrent creates. */
const VARIABLES_LOCK = 7_401;

export type NewCiVariable = Omit<CiVariable, 'id'>;

export interface CiVariableStore {
  list(window: PageWindow): Promise<Page<CiVariable>>;
  find(key: string): Promise<CiVariable | null>;
  /**
   * Adds the variable and its events, in the caller's transaction; `check` runs first, told how
   * many variables exist and whether the key is taken, with other writes held off.
   */
  create(options: {
    variable: NewCiVariable;
    check(state: { count: number; taken: boolean }): void;
    events(created: CiVariable): OutgoingEvent[];
    actor: EventActor;
  }): Promise<CiVariable>;
  /** In the caller's transaction, changes the variable found by key with `change`, which answers its events. */
  update(options: { key: string; change(variable: CiVariable): OutgoingEvent[]; actor: EventActor }): Promise<CiVariable | null>;
  delete(options: { key: string; events(deleted: CiVariable): OutgoingEvent[]; actor: EventActor }): Promise<CiVariable | null>;
}

export class PgCiVariableStore implements CiVariableStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  list(window: PageWindow): Promise<Page<CiVariable>> {
    return findPage(this.#em, CiVariable, {}, { orderBy: { id: 'asc' }, window });
  }

  find(key: string): Promise<CiVariable | null> {
    return this.#em.findOne(CiVariable, { key });
  }

  async create(options: {
    variable: NewCiVariable;
    check(state: { count: number; taken: boolean }): void;
    events(created: CiVariable): OutgoingEvent[];
    actor: EventActor;
  }): Promise<CiVariable> {
    const em = this.#em;
    await em.execute('select pg_advisory_xact_lock(?)', [VARIABLES_LOCK]);
    options.check({ count: await em.count(CiVariable, {}), taken: (await em.count(CiVariable, { key: options.variable.key })) > 0 });
    const created = em.create(CiVariable, options.variable);
    await em.flush();
    for (const event of options.events(created)) recordEvent(em, { ...event, actor: options.actor });
    return created;
  }

  async update(options: { key: string; change(variable: CiVariable): OutgoingEvent[]; actor: EventActor }): Promise<CiVariable | null> {
    const em = this.#em;
    const variable = await em.findOne(CiVariable, { key: options.key }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!variable) return null;
    for (const event of options.change(variable)) recordEvent(em, { ...event, actor: options.actor });
    return variable;
  }

  async delete(options: { key: string; events(deleted: CiVariable): OutgoingEvent[]; actor: EventActor }): Promise<CiVariable | null> {
    const em = this.#em;
    await em.execute('select pg_advisory_xact_lock(?)', [VARIABLES_LOCK]);
    const variable = await em.findOne(CiVariable, { key: options.key });
    if (!variable) return null;
    em.remove(variable);
    for (const event of options.events(variable)) recordEvent(em, { ...event, actor: options.actor });
    return variable;
  }
}
