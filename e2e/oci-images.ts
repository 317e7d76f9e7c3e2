/**
 * Tiny OCI images written by hand (no Docker): a layout with one gzipped tar layer holding
 * one file, and a config with a chosen `created` time; and skopeo, which copies them to and from
 * the registry as any client would.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const SKOPEO = '/usr/bin/skopeo';

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/** A ustar archive holding one regular file. */
function tarOf(name: string, content: string): Buffer {
  const data = Buffer.from(content);
  const header = Buffer.alloc(512);
  const field = (offset: number, length: number, value: string) => header.write(value, offset, length, 'ascii');
  field(0, 100, name);
  field(100, 8, '0000644\0');
  field(108, 8, '0000000\0');
  field(116, 8, '0000000\0');
  field(124, 12, `${data.length.toString(8).padStart(11, '0')}\0`);
  field(136, 12, '00000000000\0');
  field(156, 1, '0');
  field(257, 6, 'ustar\0');
  field(263, 2, '00');
  // The checksum is computed with its own field as spaces.
  field(148, 8, '        ');
  let sum = 0;
  for (const byte of header) sum += byte;
  field(148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  const padding = Buffer.alloc((512 - (data.length % 512)) % 512);
  return Buffer.concat([header, data, padding, Buffer.alloc(1024)]);
}

export interface BuiltImage {
  /** `oci:<dir>:<tag>` for skopeo. */
  reference: string;
  manifestDigest: string;
  configDigest: string;
  layerSize: number;
  created: Date;
}

/** Writes an OCI layout in `dir` whose one image (tagged `tag` there) has a file with `content` and the config time `created`. */
export function buildImage(dir: string, options: { tag: string; content: string; created: Date }): BuiltImage {
  mkdirSync(path.join(dir, 'blobs', 'sha256'), { recursive: true });
  const blob = (data: Buffer | string) => {
    const digest = sha256(data);
    writeFileSync(path.join(dir, 'blobs', 'sha256', digest), data);
    return { digest: `sha256:${digest}`, size: Buffer.byteLength(data) };
  };
  // Compressed as registries keep layers, so that skopeo pushes the manifest unchanged.
  const tar = tarOf('hello.txt', options.content);
  const layer = blob(gzipSync(tar));
  const config = blob(
    JSON.stringify({
      created: options.created.toISOString(),
      architecture: 'amd64',
      os: 'linux',
      config: {},
      rootfs: { type: 'layers', diff_ids: [`sha256:${sha256(tar)}`] },
    }),
  );
  const manifest = blob(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      config: { mediaType: 'application/vnd.oci.image.config.v1+json', ...config },
      layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', ...layer }],
    }),
  );
  writeFileSync(path.join(dir, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }));
  writeFileSync(
    path.join(dir, 'index.json'),
    JSON.stringify({
      schemaVersion: 2,
      manifests: [
        {
          mediaType: 'application/vnd.oci.image.manifest.v1+json',
          ...manifest,
          annotations: { 'org.opencontainers.image.ref.name': options.tag },
        },
      ],
    }),
  );
  return {
    reference: `oci:${dir}:${options.tag}`,
    manifestDigest: manifest.digest,
    configDigest: config.digest,
    layerSize: layer.size,
    created: options.created,
  };
}

export interface SkopeoResult {
  code: number;
  output: string;
}

/** `skopeo copy` over plain HTTP, with `user:token` credentials (or none) on the registry side. */
export function skopeoCopy(
  source: string,
  destination: string,
  options: { sourceCredentials?: string; destinationCredentials?: string } = {},
): Promise<SkopeoResult> {
  if (!existsSync(SKOPEO)) throw new Error(`${SKOPEO} is missing: apt-get install -y skopeo (Debian), or sh scripts/bootstrap.sh as root`);
  const args = ['--insecure-policy', 'copy', '--retry-times', '0'];
  if (source.startsWith('docker://')) {
    args.push('--src-tls-verify=false', ...(options.sourceCredentials ? ['--src-creds', options.sourceCredentials] : ['--src-no-creds']));
  }
  if (destination.startsWith('docker://')) {
    args.push(
      '--dest-tls-verify=false',
      ...(options.destinationCredentials ? ['--dest-creds', options.destinationCredentials] : ['--dest-no-creds']),
    );
  }
  args.push(source, destination);
  return new Promise((resolve) => {
    execFile(SKOPEO, args, { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmpdir() } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}
