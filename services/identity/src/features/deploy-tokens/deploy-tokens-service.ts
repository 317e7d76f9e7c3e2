import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { actorOf, type AuthenticatedCaller, type Caller, type DeployTokenCaller } from '@platform/auth';
import type { Page, PageWindow } from '@platform/db';
import { NotFoundError, RefusedError, UnauthorizedError } from '@platform/errors';
import { recordEvent } from '@platform/events/database';
import { ACCESS_LEVEL } from '@platform/identity-client';
import { requireLevel, type AccessPolicy } from '../access/access-policy.ts';
import { digestToken } from '../tokens/token-digest.ts';
import { deployTokenUsername, type DeployToken } from './deploy-token.entity.ts';
import type { DeployTokenStore } from './deploy-tokens-store.ts';
import { deployTokenCreatedEvent, deployTokenDestroyedEvent, type OwnerOfDeployToken } from './deploy-tokens.events.ts';

export type DeployTokenResource = 'project' | 'group';

export interface NewDeployTokenInput {
  name: string;
  scopes: string[];
  expiresAt?: Date | undefined;
  username?: string | undefined;
}

/** GitLab's rule for a deploy token's chosen username. */
const USERNAME_PATTERN = /^[a-zA-Z0-9.+_-]+$/;

/** A new deploy token, with GitLab's recognisable prefix. */
function generateDeployToken(): string {
  return `gldt-${randomBytes(15).toString('base64url')}`;
}

/**
 * Deploy tokens of projects and groups: maintainers list, create and delete them; administrators
 * also list the instance's. The token is shown once, at creation.
 */
export class DeployTokensService {
  readonly #em: EntityManager;
  readonly #tokens: DeployTokenStore;
  readonly #access: AccessPolicy;

  constructor(options: { em: EntityManager; tokens: DeployTokenStore; access: AccessPolicy }) {
    this.#em = options.em;
    this.#tokens = options.tokens;
    this.#access = options.access;
  }

  /**
   * The deploy token behind `plain`, while neither revoked nor expired; with HTTP Basic, GitLab also
   * wants the token's username. Asked on every use, so a revocation or expiry counts at once.
   */
  async authenticate(plain: string, username: string | undefined): Promise<DeployTokenCaller> {
    const token = plain.startsWith('gldt-') ? await this.#tokens.findByDigest(digestToken(plain)) : null;
    if (!token || token.revoked || (token.expiresAt && token.expiresAt <= new Date())) throw new UnauthorizedError();
    const tokenUsername = deployTokenUsername(token);
    if (username !== undefined && username !== tokenUsername) throw new UnauthorizedError();
    return {
      id: token.id,
      username: tokenUsername,
      scopes: token.scopes,
      projectId: token.projectId ?? null,
      groupId: token.groupId ?? null,
    };
  }

  listAll(active: boolean | undefined, window: PageWindow): Promise<Page<DeployToken>> {
    return this.#tokens.list('all', { ...(active !== undefined ? { active } : {}), now: new Date() }, window);
  }

  /** The project or group behind `:id` (404 when invisible), once the caller is found a maintainer there. */
  async #owner(caller: Caller, resource: DeployTokenResource, idOrPath: number | string): Promise<OwnerOfDeployToken> {
    const viewer = await this.#access.viewerOf(caller);
    if (resource === 'project') {
      const { project, namespace, accessLevel } = await this.#access.project(viewer, idOrPath);
      requireLevel(viewer, accessLevel, ACCESS_LEVEL.MAINTAINER);
      return { projectId: project.id, fullPath: `${namespace.fullPath}/${project.path}` };
    }
    const { group, accessLevel } = await this.#access.group(viewer, idOrPath);
    requireLevel(viewer, accessLevel, ACCESS_LEVEL.MAINTAINER);
    return { groupId: group.id, fullPath: group.fullPath };
  }

  async list(options: {
    caller: Caller;
    resource: DeployTokenResource;
    idOrPath: number | string;
    active?: boolean | undefined;
    window: PageWindow;
  }): Promise<Page<DeployToken>> {
    const owner = await this.#owner(options.caller, options.resource, options.idOrPath);
    const active = options.active;
    return this.#tokens.list(owner, { ...(active !== undefined ? { active } : {}), now: new Date() }, options.window);
  }

  async get(options: { caller: Caller; resource: DeployTokenResource; idOrPath: number | string; tokenId: number }): Promise<DeployToken> {
    const owner = await this.#owner(options.caller, options.resource, options.idOrPath);
    const token = await this.#tokens.findById(owner, options.tokenId);
    if (!token) throw new NotFoundError();
    return token;
  }

  async create(options: {
    caller: AuthenticatedCaller;
    resource: DeployTokenResource;
    idOrPath: number | string;
    input: NewDeployTokenInput;
  }): Promise<{ token: DeployToken; plain: string }> {
    const owner = await this.#owner(options.caller, options.resource, options.idOrPath);
    const { input } = options;
    if (input.username !== undefined && !USERNAME_PATTERN.test(input.username)) {
      throw new RefusedError("Username can contain only letters, digits, '_', '-', '+', and '.'");
    }
    const plain = generateDeployToken();
    const token = await this.#em.transactional(async (em) => {
      const created = await this.#tokens.insert({
        name: input.name,
        username: input.username ?? null,
        tokenDigest: digestToken(plain),
        scopes: input.scopes,
        expiresAt: input.expiresAt ?? null,
        projectId: 'projectId' in owner ? owner.projectId : null,
        groupId: 'groupId' in owner ? owner.groupId : null,
      });
      recordEvent(em, { ...deployTokenCreatedEvent(created, owner), actor: actorOf(options.caller) });
      return created;
    });
    return { token, plain };
  }

  /** Deletes the token, which ends it at once (GitLab's destroy, audited as `deploy_token_destroyed`). */
  async remove(options: {
    caller: AuthenticatedCaller;
    resource: DeployTokenResource;
    idOrPath: number | string;
    tokenId: number;
  }): Promise<void> {
    const owner = await this.#owner(options.caller, options.resource, options.idOrPath);
    await this.#em.transactional(async (em) => {
      const token = await this.#tokens.findById(owner, options.tokenId);
      if (!token) throw new NotFoundError();
      const destroyed = deployTokenDestroyedEvent(token, owner);
      await this.#tokens.remove(token);
      recordEvent(em, { ...destroyed, actor: actorOf(options.caller) });
    });
  }
}
