import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';

export interface ListeningServer {
  port: number;
  /**
   * Drains: readiness turns 503 at once, idle keep-alive connections close, busy ones close
   * after their current response, and requests in flight get up to `drainTimeoutMs` to finish
   * before the remaining connections are cut.
   */
  close(): Promise<void>;
}

const DRAINING = 'draining';

/** True once the app's server started draining; readiness answers 503 from then on. */
export function isDraining(app: Pick<Express, 'locals'>): boolean {
  return app.locals[DRAINING] === true;
}

/** Port 0 picks a free port. */
export async function listen(app: Express, port: number, options: { drainTimeoutMs?: number } = {}): Promise<ListeningServer> {
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(port, () => resolve(listening));
  });
  // Longer than the keep-alive of the pools in front (the gateway's agent, load balancers at 60 s),
  // so that the server never closes a connection a client is about to reuse.
  server.keepAliveTimeout = 65_000;
  const inFlight = new Set<ServerResponse>();
  let allDone: (() => void) | undefined;
  server.prependListener('request', (_req, res: ServerResponse) => {
    inFlight.add(res);
    // A connection that carries a request during the drain is closed after its response.
    if (isDraining(app)) res.shouldKeepAlive = false;
    res.once('close', () => {
      inFlight.delete(res);
      if (inFlight.size === 0) allDone?.();
    });
  });
  let closing: Promise<void> | undefined;
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      (closing ??= (async () => {
        app.locals[DRAINING] = true;
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        for (const res of inFlight) res.shouldKeepAlive = false;
        if (inFlight.size > 0) {
          const finished = new Promise<void>((resolve) => (allDone = resolve));
          let timer: NodeJS.Timeout | undefined;
          const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, options.drainTimeoutMs ?? 10_000)));
          await Promise.race([finished, timeout]);
          clearTimeout(timer);
        }
        server.closeAllConnections();
        await closed;
      })()),
  };
}
