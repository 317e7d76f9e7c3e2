/**
 * What a service built on fake stores gets for its entity manager: `transactional` runs the work
 * and nothing else, as fakes hold no database. `EntityManager` is the type the service takes.
 */
export function fakeTransactions<EntityManager>(): EntityManager {
  return { transactional: <Result>(work: () => Promise<Result>) => work() } as unknown as EntityManager;
}
