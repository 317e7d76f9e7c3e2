/**
 * How the gateway reaches a service: several addresses balanced round-robin, each behind its
 * own circuit breaker, every attempt bounded by a connect and a response timeout, and safe
 * requests retried once on a fresh connection. Answers the client itself when no attempt
 * succeeded: 504 after a timeout, 503 while every address's circuit is open, 502 otherwise.
 */
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { BrokenCircuitError, CircuitState, circuitBreaker, ConsecutiveBreaker, handleWhen, type CircuitBreakerPolicy } from 'cockatiel';
import { createProxyMiddleware } from 'http-proxy-middleware';
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

interface Attempt {
  target: string;
  succeeded(): void;
  failed(error: unknown): void;
}

const ATTEMPT = Symbol('upstream attempt');
const BODY = Symbol('request body read ahead');
const FORWARD = Symbol('forward options');
type ProxiedRequest = IncomingMessage & { [ATTEMPT]?: Attempt; [BODY]?: Buffer; [FORWARD]?: ForwardOptions };

/** Methods without a body whose repetition changes nothing: safe to send twice. */
const RETRYABLE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Failures where the service cannot have acted on the request, or a kept-alive socket went stale. */
const CONNECTION_FAULTS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT']);
/** Bodies up to this size are read before proxying, so that a request no service received can be sent again. */
const REPLAYABLE_BODY_BYTES = 64 * 1024;

function isRetryable(req: IncomingMessage, error: unknown): boolean {
  const connectFailed = error instanceof UpstreamTimeoutError && error.phase === 'connect';
  if (RETRYABLE_METHODS.has(req.method ?? '')) return connectFailed || CONNECTION_FAULTS.has((error as { code?: string }).code ?? '');
  // Any other request only when no byte of it can have reached the service (its connection never
  // opened), and its body was read ahead to be sent again.
  return (req as ProxiedRequest)[BODY] !== undefined && (connectFailed || (error as { code?: string }).code === 'ECONNREFUSED');
}

/** Reads a small body of a request that is not safe to repeat, so that it can be sent again; larger or streamed bodies stay streamed. */
async function readSmallBody(req: IncomingMessage): Promise<void> {
  // A client that expects 100 Continue (Maven's uploads) sends its body in step with the service: left streamed.
  if (RETRYABLE_METHODS.has(req.method ?? '') || req.headers['transfer-encoding'] !== undefined || req.headers.expect !== undefined) return;
  const length = Number(req.headers['content-length'] ?? 0);
  if (!Number.isSafeInteger(length) || length > REPLAYABLE_BODY_BYTES) return;
  (req as ProxiedRequest)[BODY] = await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
    req.once('close', () => {
      if (!req.complete) reject(new ClientGoneError());
    });
  });
}

function gitlabError(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent || res.writableEnded || res.destroyed) return;
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ message }));
}

/** One address of a service and its circuit. */
class Upstream {
  readonly url: string;
  readonly breaker: CircuitBreakerPolicy;
  constructor(url: string, circuit: CircuitOptions) {
    this.url = url;
    this.breaker = circuitBreaker(
      handleWhen((error) => !(error instanceof ClientGoneError)),
      { halfOpenAfter: circuit.halfOpenAfterMs, breaker: new ConsecutiveBreaker(circuit.failuresToOpen) },
    );
  }
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

/** Every address of one service. */
export class UpstreamPool {
  readonly #service: string;
  readonly #upstreams: Upstream[];
  readonly #logger: Logger;
  readonly #pooled: ReturnType<typeof proxyThrough>;
  readonly #fresh: ReturnType<typeof proxyThrough>;
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
    this.#pooled = proxyThrough(new http.Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64, keepAliveMsecs: 30_000 }), options);
    // A retry never reuses a kept-alive socket: the one that just failed may have been stale.
    this.#fresh = proxyThrough(new http.Agent({ keepAlive: false }), options);
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

  /** Proxies the request and answers it, whatever happens. */
  async forward(req: IncomingMessage, res: ServerResponse, options: ForwardOptions = {}): Promise<void> {
    (req as ProxiedRequest)[FORWARD] = options;
    try {
      await readSmallBody(req);
    } catch {
      // The client went away while sending its body.
      return;
    }
    const start = this.#next;
    this.#next = (this.#next + 1) % this.#upstreams.length;
    const order = this.#upstreams.map((_, offset) => this.#upstreams[(start + offset) % this.#upstreams.length] as Upstream);
    let retried = false;
    let lastFault: unknown;
    for (let index = 0; index < order.length; ) {
      const upstream = order[index] as Upstream;
      try {
        await upstream.breaker.execute(() => this.#attempt(upstream.url, req, res, retried ? this.#fresh : this.#pooled));
        return;
      } catch (error) {
        if (error instanceof ClientGoneError) return;
        if (error instanceof BrokenCircuitError) {
          index += 1;
          continue;
        }
        lastFault = error;
        this.#logger.warn(
          { err: error, service: this.#service, upstream: upstream.url, method: req.method, url: req.url },
          'upstream attempt failed',
        );
        if (retried || res.headersSent || !isRetryable(req, error)) break;
        retried = true;
        // With one address the retry goes to it again, on a new connection.
        if (order.length > 1) index += 1;
      }
    }
    if (lastFault === undefined) gitlabError(res, 503, '503 Service Unavailable');
    else if (lastFault instanceof UpstreamTimeoutError) gitlabError(res, 504, '504 Gateway Timeout');
    else gitlabError(res, 502, '502 Bad Gateway');
  }

  #attempt(target: string, req: IncomingMessage, res: ServerResponse, proxy: ReturnType<typeof proxyThrough>): Promise<void> {
    return new Promise((resolve, reject) => {
      (req as ProxiedRequest)[ATTEMPT] = { target, succeeded: resolve, failed: reject };
      void proxy(req as never, res as never, (error?: unknown) => reject(error ?? new Error('proxy did not handle the request')));
    });
  }
}

function settle(req: IncomingMessage, outcome: { error?: unknown }): void {
  const attempt = (req as ProxiedRequest)[ATTEMPT];
  if (!attempt) return;
  delete (req as ProxiedRequest)[ATTEMPT];
  if (outcome.error === undefined) attempt.succeeded();
  else attempt.failed(outcome.error);
}

/** An http-proxy-middleware instance whose target, timeouts and outcome follow the current attempt. */
function proxyThrough(agent: http.Agent, timeouts: UpstreamTimeouts) {
  return createProxyMiddleware<IncomingMessage, ServerResponse>({
    router: (req) => (req as ProxiedRequest)[ATTEMPT]?.target ?? '',
    agent,
    xfwd: true,
    on: {
      proxyReq: (proxyReq, req) => {
        const target = (req as ProxiedRequest)[ATTEMPT]?.target ?? '';
        const timers: NodeJS.Timeout[] = [];
        const giveUp = (phase: 'connect' | 'response') => () => proxyReq.destroy(new UpstreamTimeoutError(phase, target));
        // A body read ahead is written here; piping the request, already ended, then ends this one.
        const body = (req as ProxiedRequest)[BODY];
        if (body !== undefined && body.length > 0) proxyReq.write(body);
        const socket = proxyReq.socket;
        if (socket?.connecting) {
          const connectTimer = setTimeout(giveUp('connect'), timeouts.connectTimeoutMs);
          timers.push(connectTimer);
          socket.once('connect', () => clearTimeout(connectTimer));
        }
        const responseTimeoutMs = (req as ProxiedRequest)[FORWARD]?.responseTimeoutMs ?? timeouts.responseTimeoutMs;
        timers.push(setTimeout(giveUp('response'), timeouts.connectTimeoutMs + responseTimeoutMs));
        const clear = () => timers.forEach(clearTimeout);
        proxyReq.once('response', clear);
        proxyReq.once('close', clear);
      },
      proxyRes: (proxyRes, req, res) => {
        // Hop-by-hop: the client's connection is kept alive or closed (while draining) as the gateway
        // decides. Copied from the service, `Connection: keep-alive` would keep it open under a drain.
        delete proxyRes.headers['keep-alive'];
        proxyRes.headers.connection = res.shouldKeepAlive ? 'keep-alive' : 'close';
        (req as ProxiedRequest)[FORWARD]?.onResponseHeaders?.(proxyRes.headers);
        settle(req, {});
      },
      econnreset: (_error, req) => settle(req, { error: new ClientGoneError() }),
      error: (error, req) => settle(req as IncomingMessage, { error }),
    },
  });
}

/** A pool per service proxied to; a service without one is not part of this platform. */
export type Upstreams = Partial<Record<ServiceName, UpstreamPool>>;
