import type { DeployKey } from './deploy-key.entity.ts';
import type { EnabledDeployKey } from './deploy-keys-store.ts';

/** GitLab's `DeployKey` entity: the key with its MD5 (colon-separated, as parsed) and SHA-256 fingerprints. */
export function deployKeyView(key: DeployKey) {
  return {
    id: key.id,
    title: key.title,
    created_at: key.createdAt,
    expires_at: key.expiresAt ?? null,
    key: key.key,
    fingerprint: key.fingerprintMd5,
    fingerprint_sha256: `SHA256:${key.fingerprintSha256}`,
    usage_type: 'auth',
  };
}

/** GitLab's `DeployKeysProject`: the key as a project has it, with whether it may push there. */
export function enabledDeployKeyView({ key, link }: EnabledDeployKey) {
  return { ...deployKeyView(key), can_push: link.canPush };
}
