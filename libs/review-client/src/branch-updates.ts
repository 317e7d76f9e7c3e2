import type { AuthenticatedCaller } from '@platform/auth';
import { callUnary, CLIENT_CHANNEL_OPTIONS, createChannelCredentials, internalClientOptions } from '@platform/grpc';
import { ReviewServiceClient } from '@platform/proto/review/v1';

/** Whether a user may update a branch of a project (push to it or merge into it): review owns protected branches. */
export interface BranchUpdates {
  /** Whether the caller may push to `branch` or merge into it, its protection weighed; NotFoundError when the project is unseen. */
  mayUpdate(options: { caller: AuthenticatedCaller; projectId: number; branch: string }): Promise<boolean>;
  close(): void;
}

/** Asks review's CheckBranchUpdate over gRPC, for the caller. */
export class GrpcBranchUpdates implements BranchUpdates {
  readonly #client: ReviewServiceClient;

  constructor(options: { address: string; internalSecret: string }) {
    this.#client = new ReviewServiceClient(options.address, createChannelCredentials(), {
      ...CLIENT_CHANNEL_OPTIONS,
      ...internalClientOptions({ internalSecret: options.internalSecret }),
    });
  }

  async mayUpdate(options: Parameters<BranchUpdates['mayUpdate']>[0]): Promise<boolean> {
    const response = await callUnary(
      this.#client.checkBranchUpdate.bind(this.#client),
      { projectId: options.projectId, branch: options.branch },
      // Review asks identity about the caller and its groups: more than the default two seconds on a busy host.
      { caller: options.caller, deadlineMs: 5_000 },
    );
    return response.allowed;
  }

  close(): void {
    this.#client.close();
  }
}

/** Branches only some users may update, held in memory; any other branch is open to every caller: for tests. */
export class FakeBranchUpdates implements BranchUpdates {
  readonly #protected = new Map<string, Set<number>>();

  /** Protects a project's branch: only these users may update it. */
  protect(projectId: number, branch: string, userIds: number[]): this {
    this.#protected.set(`${projectId}:${branch}`, new Set(userIds));
    return this;
  }

  async mayUpdate(options: Parameters<BranchUpdates['mayUpdate']>[0]): Promise<boolean> {
    return this.#protected.get(`${options.projectId}:${options.branch}`)?.has(options.caller.userId) ?? true;
  }

  close(): void {}
}
