/**
 * The Distribution registry's HTTP API as this service uses it, with tokens it signs for itself:
 * manifests and image configs (a tag's details), and deletion of tags.
 */
import { createHash } from 'node:crypto';
import type { RegistryTokenIssuer } from './registry-token.ts';

const MANIFEST_TYPES = [
  'application/vnd.oci.image.manifest.v1+json',
  'application/vnd.docker.distribution.manifest.v2+json',
  'application/vnd.oci.image.index.v1+json',
  'application/vnd.docker.distribution.manifest.list.v2+json',
];

/** What a tag's manifest says: GitLab's `revision`, `total_size` and `created_at`. */
export interface ManifestDetails {
  digest: string;
  /** The config digest without `sha256:`; null for a manifest list (several images). */
  revision: string | null;
  totalSize: number | null;
  createdAt: Date | null;
}

interface ImageManifest {
  mediaType?: string;
  config?: { digest?: string };
  layers?: Array<{ size?: number }>;
}

/**
 * The stand-in manifest GitLab pushes onto a tag before deleting it by digest, so that only that
 * tag goes, not the other tags of the same image: an image without layers whose config is `{}`.
 */
const DUMMY_CONFIG = Buffer.from(JSON.stringify({ config: {} }));
export const DUMMY_CONFIG_DIGEST = `sha256:${createHash('sha256').update(DUMMY_CONFIG).digest('hex')}`;
const DUMMY_MANIFEST = JSON.stringify({
  schemaVersion: 2,
  mediaType: 'application/vnd.docker.distribution.manifest.v2+json',
  config: { mediaType: 'application/vnd.docker.container.image.v1+json', size: DUMMY_CONFIG.length, digest: DUMMY_CONFIG_DIGEST },
  layers: [],
});

export class RegistryError extends Error {
  override name = 'RegistryError';
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.status = status;
  }
}

export class RegistryClient {
  readonly #url: string;
  readonly #tokens: RegistryTokenIssuer;

  constructor(options: { url: string; tokens: RegistryTokenIssuer }) {
    this.#url = options.url.replace(/\/$/, '');
    this.#tokens = options.tokens;
  }

  async #request(repository: string, actions: string[], path: string, init: RequestInit = {}): Promise<Response> {
    const token = await this.#tokens.issue('packages', [{ type: 'repository', name: repository, actions }]);
    const response = await fetch(`${this.#url}/v2/${repository}/${path}`, {
      ...init,
      headers: { ...(init.headers as Record<string, string> | undefined), Authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(30_000),
    });
    return response;
  }

  async #expect(response: Response, what: string, statuses: number[]): Promise<Response> {
    if (statuses.includes(response.status)) return response;
    const body = await response.text().catch(() => '');
    throw new RegistryError(`${what}: the registry answered ${response.status} ${body.slice(0, 300)}`, response.status);
  }

  /** The manifest's digest, config digest, layer sizes and the config's `created`. */
  async manifestDetails(repository: string, reference: string): Promise<ManifestDetails> {
    const response = await this.#expect(
      await this.#request(repository, ['pull'], `manifests/${reference}`, { headers: { Accept: MANIFEST_TYPES.join(', ') } }),
      `manifest ${repository}@${reference}`,
      [200],
    );
    const raw = Buffer.from(await response.arrayBuffer());
    const digest = response.headers.get('docker-content-digest') ?? `sha256:${createHash('sha256').update(raw).digest('hex')}`;
    const manifest = JSON.parse(raw.toString('utf8')) as ImageManifest;
    const configDigest = manifest.config?.digest;
    if (!configDigest) return { digest, revision: null, totalSize: null, createdAt: null };
    const config = await this.#expect(
      await this.#request(repository, ['pull'], `blobs/${configDigest}`),
      `config ${repository}@${configDigest}`,
      [200],
    );
    const created = ((await config.json()) as { created?: unknown }).created;
    const createdAt = typeof created === 'string' && !Number.isNaN(Date.parse(created)) ? new Date(created) : null;
    return {
      digest,
      revision: configDigest.replace(/^sha256:/, ''),
      totalSize: (manifest.layers ?? []).reduce((sum, layer) => sum + (layer.size ?? 0), 0),
      createdAt,
    };
  }

  /** The tags the registry holds for a repository (none when it holds no such repository). */
  async tags(repository: string): Promise<string[]> {
    const response = await this.#request(repository, ['pull'], 'tags/list');
    if (response.status === 404) return [];
    await this.#expect(response, `tags of ${repository}`, [200]);
    return ((await response.json()) as { tags?: string[] | null }).tags ?? [];
  }

  /**
   * Deletes tags and only them, as GitLab does: each is moved onto the stand-in manifest, which is
   * then deleted by digest; the images they pointed at stay for their other tags (and blobs stay).
   */
  async deleteTags(repository: string, tags: string[]): Promise<void> {
    if (tags.length === 0) return;
    await this.#uploadDummyConfig(repository);
    let digest: string | undefined;
    for (const tag of tags) {
      const response = await this.#expect(
        await this.#request(repository, ['pull', 'push'], `manifests/${encodeURIComponent(tag)}`, {
          method: 'PUT',
          headers: { 'Content-Type': 'application/vnd.docker.distribution.manifest.v2+json' },
          body: DUMMY_MANIFEST,
        }),
        `stand-in manifest for ${repository}:${tag}`,
        [201],
      );
      digest = response.headers.get('docker-content-digest') ?? digest;
    }
    if (!digest) throw new RegistryError(`the registry did not name the stand-in manifest's digest for ${repository}`, 502);
    const deleted = await this.#request(repository, ['delete', 'pull', 'push'], `manifests/${digest}`, { method: 'DELETE' });
    await this.#expect(deleted, `deletion of ${repository}@${digest}`, [202, 404]);
  }

  async #uploadDummyConfig(repository: string): Promise<void> {
    const exists = await this.#request(repository, ['pull', 'push'], `blobs/${DUMMY_CONFIG_DIGEST}`, { method: 'HEAD' });
    if (exists.status === 200) return;
    const started = await this.#expect(
      await this.#request(repository, ['pull', 'push'], 'blobs/uploads/', { method: 'POST' }),
      `upload to ${repository}`,
      [202],
    );
    const location = new URL(started.headers.get('location') ?? '', `${this.#url}/`);
    location.searchParams.set('digest', DUMMY_CONFIG_DIGEST);
    const token = await this.#tokens.issue('packages', [{ type: 'repository', name: repository, actions: ['pull', 'push'] }]);
    const finished = await fetch(location, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/octet-stream' },
      body: DUMMY_CONFIG,
      signal: AbortSignal.timeout(30_000),
    });
    await this.#expect(finished, `upload to ${repository}`, [201]);
  }
}
