import { AsyncLocalStorage } from 'node:async_hooks';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestHandler } from 'express';

/**
 * The unit of work under way: the global entity manager it belongs to, and its fork once
 * something asked for it. A read that goes through a read model never asks, and so never pays
 * for a fork (its identity map, unit of work and copies of the global settings).
 */
class UnitOfWork {
  readonly #global: EntityManager;
  #fork: EntityManager | undefined;
  #forking = false;

  constructor(global: EntityManager) {
    this.#global = global;
  }

  /** The unit of work's entity manager when it belongs to `global`'s ORM (several may share a process). */
  entityManagerOf(global: EntityManager): EntityManager | undefined {
    if (global !== this.#global || this.#forking) return undefined;
    if (this.#fork === undefined) {
      // Making the fork asks for the context: it is the global entity manager until the fork exists.
      this.#forking = true;
      try {
        this.#fork = global.fork({ useContext: true, disableContextResolution: true });
      } finally {
        this.#forking = false;
      }
    }
    return this.#fork;
  }
}

const unitsOfWork = new AsyncLocalStorage<UnitOfWork>();

/**
 * What `orm.em` resolves to within a unit of work (the ORM's `context` option): the unit of work's
 * fork, made on first use.
 */
export function currentEntityManager(global: EntityManager): EntityManager | undefined {
  return unitsOfWork.getStore()?.entityManagerOf(global);
}

/** One identity map per HTTP request, forked when the request first uses the entity manager. */
export function requestScope(orm: { em: EntityManager }): RequestHandler {
  return (_req, _res, next) => {
    unitsOfWork.run(new UnitOfWork(orm.em), next);
  };
}

/** One identity map per gRPC call or Kafka message, forked when the work first uses the entity manager. */
export function inUnitOfWork<Result>(orm: { em: EntityManager }, work: () => Promise<Result>): Promise<Result> {
  return unitsOfWork.run(new UnitOfWork(orm.em), work);
}
