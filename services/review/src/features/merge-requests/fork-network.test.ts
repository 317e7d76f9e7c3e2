import { describe, expect, it } from '@jest/globals';
import type { IdentityAccess, ProjectAccess } from '@platform/identity-client';
import { inSameForkNetwork } from './fork-network.ts';

/** Projects 1 (upstream) <- 2 <- 3, 1 <- 4, and 5 on its own. */
const forkedFrom = new Map<number, number | null>([
  [1, null],
  [2, 1],
  [3, 2],
  [4, 1],
  [5, null],
]);
const access = {
  projectPlacement: async (id: number): ReturnType<IdentityAccess['projectPlacement']> =>
    forkedFrom.has(id) ? { pathWithNamespace: `p/${id}`, namespaceIds: [], forkedFromProjectId: forkedFrom.get(id) ?? null } : undefined,
};
const project = (id: number) => ({ id, forkedFromProjectId: forkedFrom.get(id) ?? null }) as ProjectAccess;

describe('inSameForkNetwork', () => {
  it('joins a fork with its upstream, the upstream of that, and its sibling forks', async () => {
    expect(await inSameForkNetwork(access, project(2), project(1))).toBe(true);
    expect(await inSameForkNetwork(access, project(3), project(1))).toBe(true);
    expect(await inSameForkNetwork(access, project(3), project(4))).toBe(true);
    expect(await inSameForkNetwork(access, project(1), project(1))).toBe(true);
  });

  it('keeps unrelated projects apart', async () => {
    expect(await inSameForkNetwork(access, project(2), project(5))).toBe(false);
    expect(await inSameForkNetwork(access, project(5), project(1))).toBe(false);
  });
});
