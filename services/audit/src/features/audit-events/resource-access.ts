import { ForbiddenError } from '@platform/errors';
import { callUnary } from '@platform/grpc';
import type { IdentityServiceClient } from '@platform/proto/identity/v1';

export type AuditedResource = 'group' | 'project';

/** Whether a user may read a group's or project's audit events; identity owns the answer. */
export interface ResourceAccess {
  /**
   * The id of the group or project behind `idOrPath` when the user has at least `minimumLevel`
   * there. NotFoundError when it does not exist or the user may not see it; ForbiddenError otherwise.
   */
  require(options: { resource: AuditedResource; idOrPath: string; userId: number; minimumLevel: number }): Promise<number>;
}

/** Asks identity's CheckAccess over gRPC. */
export class IdentityResourceAccess implements ResourceAccess {
  readonly #client: IdentityServiceClient;

  constructor(client: IdentityServiceClient) {
    this.#client = client;
  }

  async require(options: { resource: AuditedResource; idOrPath: string; userId: number; minimumLevel: number }): Promise<number> {
    const response = await callUnary(this.#client.checkAccess.bind(this.#client), {
      userId: options.userId,
      minAccessLevel: options.minimumLevel,
      ...(options.resource === 'group' ? { groupIdOrPath: options.idOrPath } : { projectIdOrPath: options.idOrPath }),
    });
    if (!response.allowed) throw new ForbiddenError();
    const id = options.resource === 'group' ? response.group?.id : response.project?.id;
    if (id === undefined) throw new Error(`CheckAccess answered without the ${options.resource}`);
    return id;
  }
}
