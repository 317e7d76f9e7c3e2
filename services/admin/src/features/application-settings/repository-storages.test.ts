import { describe, expect, it } from '@jest/globals';
import { UnavailableError } from '@platform/errors';
import type { RepositoryStorageNames } from '@platform/review-client';
import { ConfiguredRepositoryStorages } from './repository-storages.ts';

/** Review's answers in turn: a list of names, or an error when it cannot be reached. */
class ScriptedStorageNames implements RepositoryStorageNames {
  asked = 0;
  readonly #answers: Array<string[] | Error>;
  constructor(answers: Array<string[] | Error>) {
    this.#answers = answers;
  }
  async list(): Promise<string[]> {
    const answer = this.#answers[this.asked++];
    if (!answer || answer instanceof Error) throw answer ?? new Error('no more answers');
    return answer;
  }
  close(): void {}
}

describe('ConfiguredRepositoryStorages', () => {
  it("reuses review's answer for a few seconds, then asks again", async () => {
    let now = 0;
    const source = new ScriptedStorageNames([['default'], ['default', 'second']]);
    const storages = new ConfiguredRepositoryStorages({ source, now: () => now });
    expect(await storages.names()).toEqual(['default']);
    now = 9_000;
    expect(await storages.names()).toEqual(['default']);
    now = 10_000;
    expect(await storages.names()).toEqual(['default', 'second']);
    expect(source.asked).toBe(2);
  });

  it('is unavailable when review cannot answer', async () => {
    const storages = new ConfiguredRepositoryStorages({ source: new ScriptedStorageNames([new Error('deadline exceeded')]) });
    await expect(storages.names()).rejects.toBeInstanceOf(UnavailableError);
  });
});
