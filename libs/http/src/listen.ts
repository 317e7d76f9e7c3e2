import { createServer, STATUS_CODES, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Express } from 'express';

export interface ListeningServer {
  port: number;
  /**
   * Drains: readiness turns 503 at once, busy keep-alive connections close after their current
   * response, idle ones once they were idle for a moment. Requests that still arrive (already
   * queued, or sent before the load balancer saw readiness fail) are served on connections closed
   * after them; the listener closes once nothing came for a quiet period and nothing is in flight,
   * or at the latest at half of `drainTimeoutMs`; what is still in flight at `drainTimeoutMs` is cut.
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

/** How long a kept-alive connection without a request must have been idle before a drain closes it. */
const IDLE_BEFORE_CLOSE_MS = 250;

/**
 * Serves `app` (an express app, or a request listener that hands what it does not serve itself
 * to one: its `locals` are where the drain is marked). Port 0 picks a free port.
 */
export async function listen(
  app: RequestListener & Pick<Express, 'locals'>,
  port: number,
  options: { drainTimeoutMs?: number; /** How long without a new request ends the drain (500 ms). */ drainQuietMs?: number } = {},
): Promise<ListeningServer> {
  const server: Server = createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('clientError', answerUnparsableRequest);
  // Longer than the keep-alive of the pools in front (the gateway's agent, load balancers at 60 s),
  // so that the server never closes a connection a client is about to reuse.
  server.keepAliveTimeout = 65_000;
  const inFlight = new Set<ServerResponse>();
  /** Open connections without a request in flight, and since when. */
  const idleSince = new Map<Socket, number>();
  server.on('connection', (socket: Socket) => {
    idleSince.set(socket, Date.now());
    socket.once('close', () => idleSince.delete(socket));
  });
  let lastRequestAt = 0;
  let settled: (() => void) | undefined;
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    inFlight.add(res);
    idleSince.delete(req.socket);
    lastRequestAt = Date.now();
    // A connection that carries a request during the drain is closed after its response.
    if (isDraining(app)) res.shouldKeepAlive = false;
    res.once('close', () => {
      inFlight.delete(res);
      if (!req.socket.destroyed) idleSince.set(req.socket, Date.now());
      if (inFlight.size === 0) settled?.();
    });
  });
  /**
   * Closes the connections that stayed idle for a while: a client that just got an answer may be
   * sending its next request on its connection already, and closing it under that request resets it.
   */
  const closeIdleConnections = () => {
    const before = Date.now() - IDLE_BEFORE_CLOSE_MS;
    for (const [socket, since] of idleSince) if (since <= before) socket.destroy();
  };
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
  /** Resolves once nothing is in flight. */
  const finished = async () => {
    while (inFlight.size > 0) await new Promise<void>((resolve) => (settled = resolve));
  };
  const delay = (ms: number) => {
    let timer: NodeJS.Timeout | undefined;
    return { elapsed: new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))), cancel: () => clearTimeout(timer) };
  };
  let closing: Promise<void> | undefined;
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      (closing ??= (async () => {
        app.locals[DRAINING] = true;
        lastRequestAt = Date.now();
        for (const res of inFlight) res.shouldKeepAlive = false;
        const sweeper = setInterval(closeIdleConnections, 50);
        const drainTimeoutMs = options.drainTimeoutMs ?? 10_000;
        // Clients that keep sending (nothing in front took this server out of rotation) never let it
        // fall quiet: half the drain timeout serves them, then the listener closes and the requests
        // accepted by then have the other half to finish.
        const accepting = delay(drainTimeoutMs / 2);
        await Promise.race([quiet(), accepting.elapsed]);
        accepting.cancel();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        const finishing = delay(drainTimeoutMs / 2);
        await Promise.race([finished(), finishing.elapsed]);
        finishing.cancel();
        clearInterval(sweeper);
        server.closeAllConnections();
        await closed;
      })()),
  };
}
