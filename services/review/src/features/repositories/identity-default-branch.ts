import { callUnary, CLIENT_CHANNEL_OPTIONS, createChannelCredentials, internalClientOptions } from '@platform/grpc';
import { IdentityServiceClient } from '@platform/proto/identity/v1';
import type { DefaultBranchListener } from './repositories-service.ts';

/** Identity owns a project's `default_branch`; review tells it when a first push chose one. */
export class IdentityDefaultBranch {
  readonly #client: IdentityServiceClient;

  constructor(options: { address: string; internalSecret: string }) {
    this.#client = new IdentityServiceClient(options.address, createChannelCredentials(), {
      ...CLIENT_CHANNEL_OPTIONS,
      ...internalClientOptions({ internalSecret: options.internalSecret }),
    });
  }

  /** Acts as the pusher, who identity checks may push (developer or above). */
  readonly set: DefaultBranchListener = async ({ projectId, branch, caller }) => {
    await callUnary(this.#client.setProjectDefaultBranch.bind(this.#client), { projectId, branch }, { caller });
  };

  close(): void {
    this.#client.close();
  }
}
