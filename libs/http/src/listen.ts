import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';

export interface ListeningServer {
  port: number;
  /** Stops accepting and waits for requests in flight (idle keep-alive connections close at once). */
  close(): Promise<void>;
}

/** Port 0 picks a free port. */
export async function listen(app: Express, port: number): Promise<ListeningServer> {
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(port, () => resolve(listening));
  });
  // Longer than the keep-alive of the pools in front (the gateway's agent, load balancers at 60 s),
  // so that the server never closes a connection a client is about to reuse.
  server.keepAliveTimeout = 65_000;
  return {
    port: (server.address() as AddressInfo).port,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
    },
  };
}
