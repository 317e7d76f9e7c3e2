/** How blobs leave the service: base64 inside a JSON body, or raw bytes, streamed either way. */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { reply, type RouteReply } from '@platform/http';
import type { GitRepository } from './git-repository.ts';

/** How much of a blob git itself looks at to call it binary (a NUL within the first 8000 bytes). */
const BINARY_PROBE_BYTES = 8000;

/** GitLab's `no_cache_headers`: blob contents are never cached by clients or proxies. */
export const NO_CACHE_HEADERS = { 'Cache-Control': 'no-cache, no-store', Pragma: 'no-cache', Expires: 'Fri, 01 Jan 1990 00:00:00 GMT' };

/** The SHA-256 of a blob, read as a stream. */
export async function blobSha256(git: GitRepository, blobId: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of git.readBlob(blobId)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * `fields` as a JSON object with the blob as its base64 `content`, written while git reads it:
 * a 100 MB file costs a few chunks of memory, not 233 MB of strings.
 */
export function jsonWithBase64Content(options: { git: GitRepository; blobId: string; fields: Record<string, unknown> }): Readable {
  const json = JSON.stringify(options.fields);
  const blob = options.git.readBlob(options.blobId);
  async function* body() {
    yield `${json.slice(0, -1)}${json === '{}' ? '' : ','}"content":"`;
    let carry = Buffer.alloc(0);
    for await (const chunk of blob) {
      const data = Buffer.concat([carry, chunk as Buffer]);
      // Whole groups of three bytes only: base64 of the rest waits for the next chunk.
      const whole = data.length - (data.length % 3);
      yield data.subarray(0, whole).toString('base64');
      carry = data.subarray(whole);
    }
    yield `${carry.toString('base64')}"}`;
  }
  return Readable.from(body());
}

/** The first bytes of a stream, and a stream of all of it (those bytes first). */
async function peek(stream: Readable, bytes: number): Promise<{ head: Buffer; whole: Readable }> {
  const chunks: Buffer[] = [];
  let length = 0;
  const iterator = stream[Symbol.asyncIterator]();
  while (length < bytes) {
    const next = await iterator.next();
    if (next.done) break;
    chunks.push(next.value as Buffer);
    length += (next.value as Buffer).length;
  }
  const head = Buffer.concat(chunks);
  async function* whole() {
    yield head;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value as Buffer;
  }
  const result = Readable.from(whole());
  result.on('close', () => stream.destroy());
  return { head, whole: result };
}

/**
 * A blob's bytes as the answer, typed as GitLab's send_git_blob types them: text as
 * `text/plain; charset=utf-8`, anything with a NUL byte near its start as `application/octet-stream`.
 */
export async function rawBlobReply(options: {
  git: GitRepository;
  blob: { id: string; size: number };
  fileName?: string;
  headers?: Record<string, string>;
}): Promise<RouteReply> {
  const { head, whole } = await peek(options.git.readBlob(options.blob.id), BINARY_PROBE_BYTES);
  const binary = head.subarray(0, BINARY_PROBE_BYTES).includes(0);
  const name = options.fileName;
  return reply({
    headers: {
      ...options.headers,
      ...NO_CACHE_HEADERS,
      'Content-Type': binary ? 'application/octet-stream' : 'text/plain; charset=utf-8',
      'Content-Length': String(options.blob.size),
      'X-Content-Type-Options': 'nosniff',
      ...(name
        ? { 'Content-Disposition': `inline; filename="${name.replace(/["\\\r\n]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}` }
        : {}),
    },
    stream: whole,
  });
}
