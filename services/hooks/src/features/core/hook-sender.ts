/**
 * Sends one webhook request: a JSON POST with a deadline, through the URL guard, keeping at most
 * what GitLab keeps of the answer (8 KiB of body, 50 headers of 1 KiB); reading stops there, so a
 * receiver that hangs or streams without end costs at most the deadline.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { checkAddress, checkUrl, hostnameOf, parseHookUrl, portOf, type GuardPolicy, type Resolver, systemResolver } from './url-guard.ts';

const RESPONSE_BODY_LIMIT = 8 * 1024;
const RESPONSE_HEADERS_COUNT_LIMIT = 50;
const RESPONSE_HEADER_SIZE_LIMIT = 1024;

export interface HookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  verifyTls: boolean;
  policy: GuardPolicy;
  timeoutMs: number;
}

/** What came back: an HTTP status, or an internal error (blocked, refused, timed out) with its message. */
export type HookResponse =
  | { kind: 'answered'; status: number; headers: Record<string, string>; body: string }
  | { kind: 'internal error'; message: string };

export type HookSender = (request: HookRequest) => Promise<HookResponse>;

/** `content-type` -> `Content-Type`, as GitLab shows response headers. */
function capitalized(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_match, dash: string, letter: string) => dash + letter.toUpperCase());
}

function keptHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers).slice(0, RESPONSE_HEADERS_COUNT_LIMIT)) {
    if (value === undefined) continue;
    kept[capitalized(name)] = (Array.isArray(value) ? value.join(', ') : value).slice(0, RESPONSE_HEADER_SIZE_LIMIT);
  }
  return kept;
}

/** A lookup that refuses addresses the policy blocks, so the connection goes where the check looked. */
function guardedLookup(policy: GuardPolicy, url: URL, resolve: Resolver): LookupFunction {
  const hostname = hostnameOf(url);
  const port = portOf(url);
  return (host, options, callback) => {
    resolve(host).then(
      (addresses) => {
        try {
          if (addresses.length === 0) throw new Error(`getaddrinfo ENOTFOUND ${host}`);
          for (const address of addresses) checkAddress(policy, { hostname, address, port });
        } catch (error) {
          callback(error as NodeJS.ErrnoException, '', 4);
          return;
        }
        const entries = addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
        if (options.all) callback(null, entries);
        else callback(null, entries[0]?.address ?? '', entries[0]?.family ?? 4);
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, '', 4),
    );
  };
}

export function createHookSender(options: { resolve?: Resolver } = {}): HookSender {
  const resolve = options.resolve ?? systemResolver;
  return async (request) => {
    let url: URL;
    try {
      url = parseHookUrl(request.url);
      await checkUrl(request.policy, request.url, resolve);
    } catch (error) {
      return { kind: 'internal error', message: error instanceof Error ? error.message : String(error) };
    }
    const headers: Record<string, string> = { ...request.headers, 'Content-Length': String(Buffer.byteLength(request.body)) };
    if (url.username || url.password) {
      const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
      headers.Authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
      url.username = '';
      url.password = '';
    }
    const transport = url.protocol === 'https:' ? https : http;
    return new Promise<HookResponse>((settle) => {
      let settled = false;
      const finish = (response: HookResponse) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        settle(response);
      };
      const outgoing = transport.request(url, {
        method: 'POST',
        headers,
        agent: false,
        rejectUnauthorized: request.verifyTls,
        // Without pinning the addresses are checked above; the connection resolves the host again.
        ...(request.policy.pinResolvedAddress ? { lookup: guardedLookup(request.policy, url, resolve) } : {}),
      });
      const deadline = setTimeout(() => {
        finish({ kind: 'internal error', message: 'execution expired' });
        outgoing.destroy();
      }, request.timeoutMs);
      outgoing.on('error', (error) => finish({ kind: 'internal error', message: error.message }));
      outgoing.on('response', (incoming) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          finish({
            kind: 'answered',
            status: incoming.statusCode ?? 0,
            headers: keptHeaders(incoming.headers),
            body: Buffer.concat(chunks).toString('utf8').slice(0, RESPONSE_BODY_LIMIT),
          });
          incoming.destroy();
        };
        incoming.on('data', (chunk: Buffer) => {
          if (size < RESPONSE_BODY_LIMIT) chunks.push(chunk.subarray(0, RESPONSE_BODY_LIMIT - size));
          size += chunk.length;
          if (size >= RESPONSE_BODY_LIMIT) done();
        });
        incoming.on('end', done);
        incoming.on('error', done);
      });
      outgoing.end(request.body);
    });
  };
}
