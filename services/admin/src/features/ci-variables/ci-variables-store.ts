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
   * Adds the variable and its events, in one transaction; `check` runs first, told how many
   * variables exist and whether the key is taken, with other writes held off.
   */
  create(options: {
    variable: NewCiVariable;
    check(state: { count: number; taken: boolean }): void;
    events(created: CiVariable): OutgoingEvent[];
    actor: EventActor;
  }): Promise<CiVariable>;
  /** Changes the variable found by key with `change`, which answers its events (none: nothing stored). */
  update(options: { key: string; change(variable: CiVariable): OutgoingEvent[]; actor: EventActor }): Promise<CiVariable | null>;
  delete(options: { key: string; events(deleted: CiVariable): OutgoingEvent[]; actor: EventActor }): Promise<CiVariable | null>;
}

export class PgCiVariableStore implements CiVariableStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  list(window: PageWindow): Promise<Page<CiVariable>> {
    return findPage(this.#em.fork(), CiVariable, {}, { orderBy: { id: 'asc' }, window });
  }

  find(key: string): Promise<CiVariable | null> {
    return this.#em.fork().findOne(CiVariable, { key });
  }

  create(options: {
    variable: NewCiVariable;
    check(state: { count: number; taken: boolean }): void;
    events(created: CiVariable): OutgoingEvent[];
    actor: EventActor;
  }): Promise<CiVariable> {
    return this.#em.fork().transactional(async (em) => {
      await em.execute('select pg_advisory_xact_lock(?)', [VARIABLES_LOCK]);
      options.check({ count: await em.count(CiVariable, {}), taken: (await em.count(CiVariable, { key: options.variable.key })) > 0 });
      const created = em.create(CiVariable, options.variable);
      await em.flush();
      for (const event of options.events(created)) recordEvent(em, { ...event, actor: options.actor });
      return created;
    });
  }

  update(options: { key: string; change(variable: CiVariable): OutgoingEvent[]; actor: EventActor }): Promise<CiVariable | null> {
    return this.#em.fork().transactional(async (em) => {
      const variable = await em.findOne(CiVariable, { key: options.key }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!variable) return null;
      for (const event of options.change(variable)) recordEvent(em, { ...event, actor: options.actor });
      return variable;
    });
  }

  delete(options: { key: string; events(deleted: CiVariable): OutgoingEvent[]; actor: EventActor }): Promise<CiVariable | null> {
    return this.#em.fork().transactional(async (em) => {
      await em.execute('select pg_advisory_xact_lock(?)', [VARIABLES_LOCK]);
      const variable = await em.findOne(CiVariable, { key: options.key });
      if (!variable) return null;
      em.remove(variable);
      for (const event of options.events(variable)) recordEvent(em, { ...event, actor: options.actor });
      return variable;
    });
  }
}
