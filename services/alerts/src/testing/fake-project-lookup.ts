import type { ProjectLookup } from '../features/intake/project-lookup.ts';

/** Projects by path, held in memory: for tests that run the service without identity. */
export class FakeProjectLookup implements ProjectLookup {
  readonly #ids: Map<string, number>;

  constructor(projects: Record<string, number>) {
    this.#ids = new Map(Object.entries(projects));
  }

  async projectIdOf(path: string): Promise<number | null> {
    return this.#ids.get(path) ?? null;
  }

  close(): void {}
}
