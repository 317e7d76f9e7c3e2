import type { IdentityAccess, ProjectAccess } from '@platform/identity-client';

/** How far up a chain of forks is followed: deeper chains do not occur, and a cycle must not loop. */
const MAX_FORK_DEPTH = 32;

/** The project a chain of forks starts from (the project itself when it is no fork), asked of identity. */
async function networkRoot(access: Pick<IdentityAccess, 'projectPlacement'>, project: ProjectAccess): Promise<number> {
  let root = project.id;
  let parent = project.forkedFromProjectId;
  for (let depth = 0; parent !== null && depth < MAX_FORK_DEPTH; depth += 1) {
    root = parent;
    parent = (await access.projectPlacement(parent))?.forkedFromProjectId ?? null;
  }
  return root;
}

/**
 * Whether two projects are in one fork network (GitLab's `in_fork_network_of?`): forked, directly
 * or not, from the same project. An unlinked fork has left its network.
 */
export async function inSameForkNetwork(
  access: Pick<IdentityAccess, 'projectPlacement'>,
  first: ProjectAccess,
  second: ProjectAccess,
): Promise<boolean> {
  const [firstRoot, secondRoot] = await Promise.all([networkRoot(access, first), networkRoot(access, second)]);
  return firstRoot === secondRoot;
}
