import type { AuthenticatedCaller } from '@platform/auth';
import { RefusedError } from '@platform/errors';
import { ZERO_SHA } from '../repositories/git-repository.ts';
import type { AccessedRepository } from '../repositories/project-repositories.ts';
import type { RepositoriesService } from '../repositories/repositories-service.ts';
import { mayOnBranch, refusalOfUpdate, type Actor, type PushPolicy } from '../protected-branches/branch-protection.ts';

/** One ref moved by the API: from `before` (forty zeros: created) to `after` (forty zeros: deleted). */
export interface RefUpdate {
  ref: string;
  before: string;
  after: string;
}

/** What ref updates need of protected branches: the pusher as the rules see them, and the rules. */
export interface PushRules {
  actorOf(options: { projectId: number; userId: number; accessLevel: number; isAdmin: boolean }): Promise<Actor>;
  pushPolicy(options: { projectId: number; pusher: Actor; defaultBranch: string }): Promise<PushPolicy>;
}

/** `Commits::CreateService`'s refusal of a commit to a branch the caller may not push to. */
export const PUSH_INTO_BRANCH_REFUSAL = 'You are not allowed to push into this branch';

/** Gitaly's answer to a ref that moved since it was read: another change came first. */
export const refMovedMessage = (ref: string) => `Could not update ${ref}. Please refresh and try again.`;

/**
 * Moves refs for the API as a git push moves them: alone on the repository and refused while it is
 * read-only (`changeRefs`), judged by the rules the pre-receive hook applies, each a compare-and-swap
 * from the head the change was computed on, and recorded as the same push (events, merge request
 * refresh, first default branch). One way for every API write: files, commits, branches, tags.
 */
export class RefUpdates {
  readonly #repositories: RepositoriesService;
  readonly #rules: PushRules;

  constructor(options: { repositories: RepositoriesService; rules: PushRules }) {
    this.#repositories = options.repositories;
    this.#rules = options.rules;
  }

  /**
   * GitLab asks first whether the caller may push into the branch at all (its protection's push
   * levels, as `Gitlab::UserAccess#can_push_to_branch?`), before computing a commit for it.
   */
  async requirePush(options: { accessed: AccessedRepository; caller: AuthenticatedCaller; branch: string }): Promise<void> {
    const { project } = options.accessed;
    const actor = await this.#rules.actorOf({
      projectId: project.id,
      userId: options.caller.userId,
      accessLevel: project.accessLevel,
      isAdmin: project.isAdmin,
    });
    const { protections } = await this.#rules.pushPolicy({ projectId: project.id, pusher: actor, defaultBranch: project.defaultBranch });
    if (!mayOnBranch({ action: 'push', branch: options.branch, protections, actor })) throw new RefusedError(PUSH_INTO_BRANCH_REFUSAL);
  }

  async apply(options: { accessed: AccessedRepository; caller: AuthenticatedCaller; updates: RefUpdate[] }): Promise<void> {
    const { project, repository } = options.accessed;
    await this.#repositories.changeRefs(repository, options.caller, async () => {
      const pusher = await this.#rules.actorOf({
        projectId: project.id,
        userId: options.caller.userId,
        accessLevel: project.accessLevel,
        isAdmin: project.isAdmin,
      });
      const policy = await this.#rules.pushPolicy({ projectId: project.id, pusher, defaultBranch: await repository.git.headBranch() });
      for (const update of options.updates) {
        const refusal = await refusalOfUpdate({
          update,
          policy,
          via: 'api',
          isForced: async () => !(await repository.git.isAncestor(update.before, update.after)),
        });
        if (refusal) throw new RefusedError(refusal);
      }
      for (const update of options.updates) {
        const moved =
          update.after === ZERO_SHA
            ? await repository.git.deleteRef(update.ref, update.before)
            : await repository.git.updateRef(update.ref, update.after, update.before);
        if (!moved) throw new RefusedError(refMovedMessage(update.ref));
      }
    });
  }
}
