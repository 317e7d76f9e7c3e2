import { z } from 'zod';
import type { Caller } from '@platform/auth';
import { ForbiddenError, NotFoundError } from '@platform/errors';
import { callUnary, channelState, CLIENT_CHANNEL_OPTIONS, createChannelCredentials, internalClientOptions } from '@platform/grpc';
import { IdentityServiceClient } from '@platform/proto/identity/v1';

/** What a service that asks identity about access reads from its environment. */
export const identityClientConfig = z.object({
  /** Identity's gRPC API, which resolves groups and projects and checks callers' access to them. */
  IDENTITY_GRPC_ADDRESS: z.string().min(1).default('127.0.0.1:50051'),
});

export type AccessResource = 'group' | 'project';

export interface AccessRequirement {
  resource: AccessResource;
  /** Integer id or full path, as the API received it. */
  idOrPath: string;
  /** Whom the request acts for; identity learns it from the call's signed credentials only. */
  caller: Caller;
  /** 0 only asks whether the caller may see it; 10 guest ... 50 owner. */
  minimumLevel: number;
}

/** Whether a user may act on a group or project; identity owns the answer. */
export interface IdentityAccess {
  /**
   * The id of the group or project behind `idOrPath` when the user has at least `minimumLevel`
   * there. NotFoundError when it does not exist or the user may not see it; ForbiddenError otherwise.
   */
  require(requirement: AccessRequirement): Promise<number>;
  /** The connection's state, for readiness reports (not a readiness condition). */
  channelState(): string;
  close(): void;
}

/**
 * The client as a feature of the service runtime (`@platform/service`): its channel's state in
 * readiness, closed once the servers stopped.
 */
export function identityAccessFeature(access: IdentityAccess) {
  return {
    readinessChecks: { identityChannel: async () => access.channelState() },
    stop: () => access.close(),
  };
}

/** Asks identity's CheckAccess over gRPC. */
export class GrpcIdentityAccess implements IdentityAccess {
  readonly #client: IdentityServiceClient;

  constructor(options: { address: string; internalSecret: string }) {
    this.#client = new IdentityServiceClient(options.address, createChannelCredentials(), {
      ...CLIENT_CHANNEL_OPTIONS,
      ...internalClientOptions({ internalSecret: options.internalSecret }),
    });
  }

  async require(requirement: AccessRequirement): Promise<number> {
    const response = await callUnary(
      this.#client.checkAccess.bind(this.#client),
      {
        minAccessLevel: requirement.minimumLevel,
        ...(requirement.resource === 'group' ? { groupIdOrPath: requirement.idOrPath } : { projectIdOrPath: requirement.idOrPath }),
      },
      { caller: requirement.caller },
    );
    if (!response.allowed) throw new ForbiddenError();
    const id = requirement.resource === 'group' ? response.group?.id : response.project?.id;
    if (id === undefined) throw new Error(`CheckAccess answered without the ${requirement.resource}`);
    return id;
  }

  channelState(): string {
    return channelState(this.#client);
  }

  close(): void {
    this.#client.close();
  }
}

/** Groups and projects with their members' access levels, held in memory: for unit tests. */
export class FakeIdentityAccess implements IdentityAccess {
  readonly #resources: Array<{ resource: AccessResource; id: number; path: string; isPublic: boolean; levels: Map<number, number> }> = [];

  /**
   * Adds a group or project; `levels` maps user ids to their access level there. A public one is
   * visible to everyone (level 0 for non-members).
   */
  add(options: { resource: AccessResource; id: number; path: string; isPublic?: boolean; levels?: Record<number, number> }): this {
    const levels = new Map(Object.entries(options.levels ?? {}).map(([userId, level]) => [Number(userId), level]));
    this.#resources.push({ resource: options.resource, id: options.id, path: options.path, isPublic: options.isPublic ?? false, levels });
    return this;
  }

  async require(requirement: AccessRequirement): Promise<number> {
    const found = this.#resources.find(
      (entry) =>
        entry.resource === requirement.resource && (String(entry.id) === requirement.idOrPath || entry.path === requirement.idOrPath),
    );
    const userId = requirement.caller.kind === 'user' ? requirement.caller.userId : 0;
    const level = found?.levels.get(userId) ?? (found?.isPublic ? 0 : undefined);
    // Like identity, a resource the user has no access to at all is invisible, not forbidden.
    if (!found || level === undefined) throw new NotFoundError(requirement.resource === 'group' ? 'Group' : 'Project');
    if (level < requirement.minimumLevel) throw new ForbiddenError();
    return found.id;
  }

  channelState(): string {
    return 'in memory';
  }

  close(): void {}
}
