import type { AuthenticatedCaller } from '@platform/auth';
import { callUnary, CLIENT_CHANNEL_OPTIONS, createChannelCredentials, internalClientOptions } from '@platform/grpc';
import { ReviewServiceClient } from '@platform/proto/review/v1';

/** One page of the merge requests a deployment shipped, as review shows them, and how many there are. */
export interface DeployedMergeRequestsPage {
  items: unknown[];
  total: number;
}

/** Where the merge requests a deployment shipped are found: review owns merge requests and repositories. */
export interface DeployedMergeRequests {
  list(options: {
    caller: AuthenticatedCaller;
    projectId: number;
    sha: string;
    /** The environment's previous successful deployment's sha; empty for its first. */
    previousSha: string;
    /** The merge request list parameters, as the caller gave them. */
    parameters: Record<string, string>;
  }): Promise<DeployedMergeRequestsPage>;
  close(): void;
}

/** Asks review's ListDeployedMergeRequests over gRPC, for the caller. */
export class GrpcDeployedMergeRequests implements DeployedMergeRequests {
  readonly #client: ReviewServiceClient;

  constructor(options: { address: string; internalSecret: string }) {
    this.#client = new ReviewServiceClient(options.address, createChannelCredentials(), {
      ...CLIENT_CHANNEL_OPTIONS,
      ...internalClientOptions({ internalSecret: options.internalSecret }),
    });
  }

  async list(options: Parameters<DeployedMergeRequests['list']>[0]): Promise<DeployedMergeRequestsPage> {
    const response = await callUnary(
      this.#client.listDeployedMergeRequests.bind(this.#client),
      { projectId: options.projectId, sha: options.sha, previousSha: options.previousSha, parameters: options.parameters },
      // Review walks the repository's history for this: more than the default two seconds on a busy host.
      { caller: options.caller, deadlineMs: 10_000 },
    );
    return { items: response.mergeRequestsJson.map((json) => JSON.parse(json) as unknown), total: response.total };
  }

  close(): void {
    this.#client.close();
  }
}
