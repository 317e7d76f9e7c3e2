/**
 * Which projects have tags in their container registry, as the packages service knows them:
 * identity asks before it moves a project's path (a transfer, a path change, a group's transfer
 * or path change), since GitLab refuses to move images that the registry keeps by path.
 */
import { z } from 'zod';
import { grpcAddressFromEnv, setByDeployment } from '@platform/config';
import { callUnary, CLIENT_CHANNEL_OPTIONS, createChannelCredentials, internalClientOptions } from '@platform/grpc';
import { PackagesServiceClient } from '@platform/proto/packages/v1';

/** What a service asking about container registry tags reads from its environment. */
export const packagesClientConfig = z.object({
  PACKAGES_GRPC_ADDRESS: setByDeployment(grpcAddressFromEnv.optional()).describe(
    "the packages service's gRPC address, asked before a project or group is moved or given a new path; unset where no container registry is deployed",
  ),
});

export interface ContainerRegistryTags {
  /** Those of `projectIds` whose container registry holds at least one tag. */
  projectsWithTags(projectIds: number[]): Promise<number[]>;
  close(): void;
}

/** Asks the packages service over gRPC, on the asking service's own behalf. */
export class GrpcContainerRegistryTags implements ContainerRegistryTags {
  readonly #client: PackagesServiceClient;

  constructor(options: { address: string; internalSecret: string }) {
    this.#client = new PackagesServiceClient(options.address, createChannelCredentials(), {
      ...CLIENT_CHANNEL_OPTIONS,
      ...internalClientOptions({ internalSecret: options.internalSecret }),
    });
  }

  async projectsWithTags(projectIds: number[]): Promise<number[]> {
    if (projectIds.length === 0) return [];
    // A transfer or rename waits for it; longer than the default two seconds, for a busy host.
    const response = await callUnary(this.#client.listProjectsWithContainerTags.bind(this.#client), { projectIds }, { deadlineMs: 10_000 });
    return response.projectIds;
  }

  close(): void {
    this.#client.close();
  }
}

/** Fixed answers: no tags anywhere where no packages service runs, or the projects a test names. */
export class FixedContainerRegistryTags implements ContainerRegistryTags {
  readonly #withTags: Set<number>;

  constructor(projectIdsWithTags: number[] = []) {
    this.#withTags = new Set(projectIdsWithTags);
  }

  async projectsWithTags(projectIds: number[]): Promise<number[]> {
    return projectIds.filter((id) => this.#withTags.has(id));
  }

  close(): void {}
}

/** The packages service's answers when `PACKAGES_GRPC_ADDRESS` is set; none has tags otherwise. */
export function containerRegistryTagsSource(options: { address: string | undefined; internalSecret: string }): ContainerRegistryTags {
  return options.address
    ? new GrpcContainerRegistryTags({ address: options.address, internalSecret: options.internalSecret })
    : new FixedContainerRegistryTags();
}
