import { STATUS_CODES, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Express } from 'express';

export interface ListeningServer {
  port: number;
  /**
   * Drains: readiness turns 503 at once, idle keep-alive connections close, busy ones close
   * after their current response. Requests that still arrive (already queued, or sent before
   * the load balancer saw readiness fail) are served on connections closed after them; the
   * listener closes once nothing came for a quiet period and nothing is in flight, bounded by
   * `drainTimeoutMs`, after which the remaining connections are cut.
   */
  close(): Promise<void>;
}

const DRAINING = 'draining';

/** True once the app's server started draining; readiness answers 503 from then on. */
export function isDraining(app: Pick<Express, 'locals'>): boolean {
  return app.locals[DRAINING] === true;
}

/**
 * A request Node cannot parse (a URL or headers beyond its 16 KB limit, malformed HTTP) gets a
 * GitLab error body, where Node alone sends a bare status line that clients cannot read.
 */
function answerUnparsableRequest(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const body = JSON.stringify({ message: `${status} ${STATUS_CODES[status]}` });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Port 0 picks a free port. */
export async function listen(
  app: Express,
  port: number,
  options: { drainTimeoutMs?: number; /** How long without a new request ends the drain (500 ms). */ drainQuietMs?: number } = {},
): Promise<ListeningServer> {
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(port, () => resolve(listening));
  });
  server.on('clientError', answerUnparsableRequest);
  // Longer than the keep-alive of the pools in front (the gateway's agent, load balancers at 60 s),
  // so that the server never closes a connection a client is about to reuse.
  server.keepAliveTimeout = 65_000;
  const inFlight = new Set<ServerResponse>();
  let lastRequestAt = 0;
  let settled: (() => void) | undefined;
  server.prependListener('request', (_req, res: ServerResponse) => {
    inFlight.add(res);
    lastRequestAt = Date.now();
    // A connection that carries a request during the drain is closed after its response.
    if (isDraining(app)) res.shouldKeepAlive = false;
    res.once('close', () => {
      inFlight.delete(res);
      if (inFlight.size === 0) settled?.();
    });
  });
  const quietMs = options.drainQuietMs ?? 500;
  /** Resolves once nothing is in flight and no request came for `quietMs`. */
  const quiet = async () => {
    for (;;) {
      if (inFlight.size > 0) await new Promise<void>((resolve) => (settled = resolve));
      const idleFor = Date.now() - lastRequestAt;
      if (inFlight.size === 0 && idleFor >= quietMs) return;
      await new Promise((resolve) => setTimeout(resolve, Math.max(10, quietMs - idleFor)));
    }
  };
  let closing: Promise<void> | undefined;
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      (closing ??= (async () => {
        app.locals[DRAINING] = true;
        lastRequestAt = Date.now();
        server.closeIdleConnections();
        for (const res of inFlight) res.shouldKeepAlive = false;
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, options.drainTimeoutMs ?? 10_000)));
        await Promise.race([quiet(), timeout]);
        clearTimeout(timer);
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await closed;
      })()),
  };
}
