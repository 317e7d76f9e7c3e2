import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A deploy token: of a project, or of a group (and so of its projects). Not a user: it clones and
 * reads or writes registries, never calls the API. Only its SHA-256 digest is stored.
 */
export const DeployToken = defineEntity({
  name: 'DeployToken',
  tableName: 'deploy_tokens',
  properties: {
    id: p.integer().primary().autoincrement(),
    name: p.text(),
    /** The username git and registries are given with the token; `gitlab+deploy-token-<id>` unless chosen. */
    username: p.text().nullable(),
    tokenDigest: p.text().hidden(),
    scopes: p.array(),
    expiresAt: p.datetime().nullable(),
    revoked: p.boolean().default(false),
    projectId: p.integer().nullable(),
    groupId: p.integer().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type DeployToken = InferEntity<typeof DeployToken>;

/** The username a deploy token presents: its own, or GitLab's default. */
export function deployTokenUsername(token: Pick<DeployToken, 'id' | 'username'>): string {
  return token.username ?? `gitlab+deploy-token-${token.id}`;
}
