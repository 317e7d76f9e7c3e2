import type { NpmPackageDocument } from './npm-registry.ts';

/**
 * The registry's package document (what `npm install` and `npm view` read): each version's
 * package.json with its `dist` pointing at the tarball through the gateway, under the registry
 * URL the document was read from (`registryUrl`, project or instance level), so that npm sends
 * the credentials it holds for that registry with the download too. The file name is encoded
 * like the package name: a scoped package's (`@acme/kit-1.2.0.tgz`) holds a slash.
 */
export function npmPackageDocumentView(document: NpmPackageDocument, options: { registryUrl: string }) {
  const base = `${options.registryUrl}/${encodeURIComponent(document.name)}/-/`;
  return {
    name: document.name,
    versions: Object.fromEntries(
      document.versions.map(({ item, fileName }) => {
        const manifest = item.metadata ?? {};
        const dist = (manifest.dist ?? {}) as Record<string, unknown>;
        return [
          item.version,
          { ...manifest, name: document.name, version: item.version, dist: { ...dist, tarball: `${base}${encodeURIComponent(fileName)}` } },
        ];
      }),
    ),
    'dist-tags': document.distTags,
  };
}
