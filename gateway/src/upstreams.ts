/**
 * How the gateway reaches a service: several addresses balanced round-robin, each behind its
 * own circuit breaker and its own undici connection pool, every attempt bounded by a connect and
 * a response timeout, and safe requests retried once on a fresh connection. Bodies stream both
 * ways. Answers the client itself when no attempt succeeded: 504 after a timeout, 503 while every
 * address's circuit is open, 502 otherwise. undici rather than Node's http client behind a
 * generic proxy: the hop costs about half the CPU (docs/read-path.md, "The gateway hop").
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';
import { context, propagation } from '@opentelemetry/api';
import { BrokenCircuitError, CircuitState, circuitBreaker, ConsecutiveBreaker, handleWhen, type CircuitBreakerPolicy } from 'cockatiel';
import { Client, Pool, type Dispatcher } from 'undici';
import type { Logger } from '@platform/logger';
import type { ServiceName } from './route-table.ts';

export interface UpstreamTimeouts {
  /** Opening a TCP connection to the service. */
  connectTimeoutMs: number;
  /** From sending the request to receiving the response's headers. */
  responseTimeoutMs: number;
}

/** What one request adds to the pool's settings. */
export interface ForwardOptions {
  /** This request's bound from sending to the response's headers, instead of the pool's `responseTimeoutMs`. */
  responseTimeoutMs?: number;
  /** Sees the service's response headers before the client does, and may take internal ones out. */
  onResponseHeaders?: (headers: IncomingHttpHeaders) => void;
}

export interface CircuitOptions {
  /** Consecutive failed attempts that open an address's circuit. */
  failuresToOpen: number;
  /** How long an open circuit fails fast before one trial request is let through. */
  halfOpenAfterMs: number;
}

export class UpstreamTimeoutError extends Error {
  override name = 'UpstreamTimeoutError';
  readonly phase: 'connect' | 'response';
  constructor(phase: 'connect' | 'response', upstream: string) {
    super(`no ${phase} from ${upstream} in time`);
    this.phase = phase;
  }
}

/** The client went away; nothing to answer and nothing the upstream did wrong. */
class ClientGoneError extends Error {
  override name = 'ClientGoneError';
}

/** Methods without a body whose repetition changes nothing: safe to send twice. */
const RETRYABLE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/**
 * Failures where the service cannot have acted on the request, or a kept-alive socket went stale
 * (`UND_ERR_SOCKET`: the service closed the connection before answering).
 */
const CONNECTION_FAULTS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'UND_ERR_SOCKET']);
/** Bodies up to this size are read before proxying, so that a request no service received can be sent again. */
const REPLAYABLE_BODY_BYTES = 64 * 1024;
/**
 * Hop-by-hop request headers, which concern the client's connection to the gateway only. The
 * gateway's server answered `Expect: 100-continue` itself (Node does), so the body is on its way.
 */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'expect']);

function isRetryable(method: string, body: Buffer | undefined, error: unknown): boolean {
  const connectFailed = error instanceof UpstreamTimeoutError && error.phase === 'connect';
  const code = (error as { code?: string }).code ?? '';
  if (RETRYABLE_METHODS.has(method)) return connectFailed || CONNECTION_FAULTS.has(code);
  // Any other request only when no byte of it can have reached the service (its connection never
  // opened), and its body was read ahead to be sent again.
  return body !== undefined && (connectFailed || code === 'ECONNREFUSED');
}

function hasBody(req: IncomingMessage): boolean {
  return (
    req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0')
  );
}

/**
 * Whether the body of a request that is not safe to repeat is small enough to read before
 * proxying, so that it can be sent again; larger or streamed bodies stay streamed.
 */
function readsBodyAhead(req: IncomingMessage): boolean {
  // A client that expects 100 Continue (Maven's uploads) sends its body in step with the service: left streamed.
  if (RETRYABLE_METHODS.has(req.method ?? '') || req.headers['transfer-encoding'] !== undefined || req.headers.expect !== undefined)
    return false;
  const length = Number(req.headers['content-length'] ?? 0);
  return Number.isSafeInteger(length) && length <= REPLAYABLE_BODY_BYTES;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
    req.once('close', () => {
      if (!req.complete) reject(new ClientGoneError());
    });
  });
}

/** The request's headers for the service: the client's, without those of its own connection, and the trace context. */
function upstreamHeaders(req: IncomingMessage): IncomingHttpHeaders {
  const headers: IncomingHttpHeaders = {};
  for (const name in req.headers) {
    if (!HOP_BY_HOP.has(name)) headers[name] = req.headers[name];
  }
  // A no-op unless tracing is on: then the service's spans join the request's trace.
  propagation.inject(context.active(), headers);
  return headers;
}

/**
 * The request's body as undici may consume and destroy it. Handed the request itself, undici
 * detaches its socket when the service answers before the upload ended, which the server's own
 * bookkeeping still needs; and the rest of an upload nobody reads must still be read (and
 * dropped), or the next request on the client's kept-alive connection never gets parsed.
 */
function streamedBody(req: IncomingMessage): Readable {
  const body = new PassThrough();
  body.once('close', () => {
    req.unpipe(body);
    req.resume();
  });
  return req.pipe(body);
}

function gitlabError(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent || res.writableEnded || res.destroyed) return;
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ message }));
}

/**
 * Connections to one address of a service; past them, requests wait in the gateway. Bounding them
 * at 32 did not lower the services' resident memory after an overload (each service already works
 * on at most 16 requests at once: libs/http admission), so they stay many (docs/read-path.md,
 * "Memory after the bench").
 */
export const CONNECTIONS_PER_ADDRESS = 256;

/** One address of a service, its connections and its circuit. */
class Upstream {
  readonly url: string;
  readonly breaker: CircuitBreakerPolicy;
  readonly connections: Pool;
  constructor(url: string, options: CircuitOptions & UpstreamTimeouts) {
    this.url = url;
    this.breaker = circuitBreaker(
      handleWhen((error) => !(error instanceof ClientGoneError)),
      { halfOpenAfter: options.halfOpenAfterMs, breaker: new ConsecutiveBreaker(options.failuresToOpen) },
    );
    this.connections = new Pool(url, { ...connectionOptions(options), connections: CONNECTIONS_PER_ADDRESS });
  }
}

/**
 * The gateway bounds each attempt itself (`UpstreamPool.#attempt`), from sending to the response's
 * headers, as the body then streams however long; undici's own header and body timeouts are off.
 */
function connectionOptions(timeouts: UpstreamTimeouts): Client.Options {
  return {
    connect: { timeout: timeouts.connectTimeoutMs },
    headersTimeout: 0,
    bodyTimeout: 0,
    // Within the services' own keep-alive (65 s), so that a service never closes a connection the gateway is about to reuse.
    keepAliveMaxTimeout: 60_000,
  };
}

const CIRCUIT_STATE_NAMES: Record<CircuitState, string> = {
  [CircuitState.Closed]: 'closed',
  [CircuitState.Open]: 'open',
  [CircuitState.HalfOpen]: 'half-open',
  [CircuitState.Isolated]: 'isolated',
};

export interface UpstreamPoolOptions extends UpstreamTimeouts, CircuitOptions {
  service: string;
  urls: string[];
  logger: Logger;
}

/** What one attempt sends. */
interface Outgoing {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** A body read ahead, or the request's to stream, or none. */
  body: Buffer | Readable | null;
}

/** Every address of one service. */
export class UpstreamPool {
  readonly #service: string;
  readonly #upstreams: Upstream[];
  readonly #logger: Logger;
  readonly #timeouts: UpstreamTimeouts;
  #next = 0;

  constructor(options: UpstreamPoolOptions) {
    if (options.urls.length === 0) throw new Error(`no address configured for ${options.service}`);
    this.#service = options.service;
    this.#logger = options.logger;
    this.#timeouts = { connectTimeoutMs: options.connectTimeoutMs, responseTimeoutMs: options.responseTimeoutMs };
    this.#upstreams = options.urls.map((url) => new Upstream(url, options));
    for (const upstream of this.#upstreams) {
      upstream.breaker.onStateChange((state) =>
        this.#logger.warn(
          { service: this.#service, upstream: upstream.url, circuit: CIRCUIT_STATE_NAMES[state] },
          'upstream circuit changed',
        ),
      );
    }
  }

  get urls(): string[] {
    return this.#upstreams.map((upstream) => upstream.url);
  }

  /** Circuit state per address, for readiness. */
  circuits(): Record<string, string> {
    return Object.fromEntries(this.#upstreams.map((upstream) => [upstream.url, CIRCUIT_STATE_NAMES[upstream.breaker.state]]));
  }

  /**
   * The longest the pool may wait for the answer to a request: an attempt and its one retry, each
   * bounded by the connect and the response timeout.
   */
  longestWait(options: Pick<ForwardOptions, 'responseTimeoutMs'> = {}): number {
    return 2 * (this.#timeouts.connectTimeoutMs + (options.responseTimeoutMs ?? this.#timeouts.responseTimeoutMs));
  }

  /** Closes every address's connections. */
  async close(): Promise<void> {
    await Promise.all(this.#upstreams.map((upstream) => upstream.connections.close()));
  }

  /** Proxies the request and answers it, whatever happens. */
  async forward(req: IncomingMessage, res: ServerResponse, options: ForwardOptions = {}): Promise<void> {
    const method = req.method ?? 'GET';
    let readAhead: Buffer | undefined;
    // Only a body read ahead is waited for: a GET is dispatched at once, without a promise of its own.
    if (readsBodyAhead(req)) {
      try {
        readAhead = await readBody(req);
      } catch {
        // The client went away while sending its body.
        return;
      }
    }
    const outgoing: Outgoing = {
      method,
      path: req.url ?? '/',
      headers: upstreamHeaders(req),
      body: readAhead ?? (hasBody(req) ? streamedBody(req) : null),
    };
    const responseTimeoutMs = options.responseTimeoutMs ?? this.#timeouts.responseTimeoutMs;
    const count = this.#upstreams.length;
    const start = this.#next;
    this.#next = (start + 1) % count;
    let retried = false;
    let lastFault: unknown;
    for (let index = 0; index < count; ) {
      const upstream = this.#upstreams[(start + index) % count] as Upstream;
      try {
        // A retry never reuses a kept-alive connection: the one that just failed may have been stale.
        const connections = retried ? new Client(upstream.url, connectionOptions(this.#timeouts)) : upstream.connections;
        await upstream.breaker.execute(() =>
          this.#attempt({ target: upstream.url, connections, outgoing, res, responseTimeoutMs, options, once: retried }),
        );
        return;
      } catch (error) {
        if (error instanceof ClientGoneError) return;
        if (error instanceof BrokenCircuitError) {
          index += 1;
          continue;
        }
        lastFault = error;
        this.#logger.warn({ err: error, service: this.#service, upstream: upstream.url, method, url: req.url }, 'upstream attempt failed');
        if (retried || res.headersSent || !isRetryable(method, readAhead, error)) break;
        retried = true;
        // With one address the retry goes to it again, on a new connection.
        if (count > 1) index += 1;
      }
    }
    if (lastFault === undefined) gitlabError(res, 503, '503 Service Unavailable');
    else if (lastFault instanceof UpstreamTimeoutError) gitlabError(res, 504, '504 Gateway Timeout');
    else gitlabError(res, 502, '502 Bad Gateway');
  }

  /**
   * Sends the request on `connections` and streams the answer to the client. Settles once the
   * service's response headers arrived (then the client has them), or with the reason no answer
   * came: a timeout, a connection fault, or the client gone.
   */
  #attempt(attempt: {
    target: string;
    connections: Dispatcher;
    outgoing: Outgoing;
    res: ServerResponse;
    responseTimeoutMs: number;
    options: ForwardOptions;
    /** A connection for this attempt alone, closed once it is done. */
    once: boolean;
  }): Promise<void> {
    const { target, connections, outgoing, res, options } = attempt;
    return new Promise<void>((resolve, reject) => {
      let controller: Dispatcher.DispatchController | undefined;
      /** Why the attempt must end before it got its answer, should undici not have started it yet. */
      let cut: Error | undefined;
      let answered = false;
      const abort = (reason: Error) => {
        cut ??= reason;
        if (controller) return controller.abort(reason);
        // Still queued for a connection: settled now; undici drops it once it would start it.
        done();
        reject(reason);
      };
      const clientGone = () => {
        if (!res.writableFinished) abort(new ClientGoneError());
      };
      const timer = setTimeout(
        () => abort(new UpstreamTimeoutError('response', target)),
        this.#timeouts.connectTimeoutMs + attempt.responseTimeoutMs,
      );
      const done = () => {
        clearTimeout(timer);
        res.off('close', clientGone);
      };
      res.once('close', clientGone);
      connections.dispatch(
        { method: outgoing.method, path: outgoing.path, headers: outgoing.headers, body: outgoing.body },
        {
          onRequestStart: (started) => {
            controller = started;
            if (cut) started.abort(cut);
          },
          onResponseStart: (started, statusCode, headers) => {
            // 1xx answers are the service's business with the gateway, not the client's.
            if (statusCode < 200) return;
            clearTimeout(timer);
            // Hop-by-hop: the client's connection is kept alive or closed (while draining) as the gateway
            // decides. Copied from the service, `Connection: keep-alive` would keep it open under a drain.
            const responseHeaders = headers as IncomingHttpHeaders;
            delete responseHeaders['keep-alive'];
            responseHeaders.connection = res.shouldKeepAlive ? 'keep-alive' : 'close';
            options.onResponseHeaders?.(responseHeaders);
            res.writeHead(statusCode, responseHeaders as Record<string, string | string[]>);
            answered = true;
            resolve();
          },
          onResponseData: (started, chunk) => {
            if (!res.write(chunk)) {
              started.pause();
              res.once('drain', () => started.resume());
            }
          },
          onResponseEnd: () => {
            done();
            res.end();
          },
          onResponseError: (_started, error) => {
            done();
            if (answered) {
              // Part of the answer went out: the client learns of the fault from the cut connection.
              res.destroy(error);
            } else if (res.destroyed) {
              // The client left (its upload broke off): nothing to answer, and not the service's fault.
              reject(new ClientGoneError());
            } else {
              reject((error as { code?: string }).code === 'UND_ERR_CONNECT_TIMEOUT' ? new UpstreamTimeoutError('connect', target) : error);
            }
          },
        },
      );
      if (attempt.once) void connections.close();
    });
  }
}

/** A pool per service proxied to; a service without one is not part of this platform. */
export type Upstreams = Partial<Record<ServiceName, UpstreamPool>>;
