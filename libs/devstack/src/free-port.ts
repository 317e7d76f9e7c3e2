import { createServer, type Server } from 'node:net';

/**
 * Ports are picked at random below Linux's ephemeral range (32768 and up), from which port 0 and
 * every outgoing connection draw: a port freed by a killed process then stays free for its
 * restart rather than going to the next platform that asks for a free port.
 */
const FIRST_PORT = 20_000;
const LAST_PORT = 32_000;

function listenOn(server: Server, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => resolve(true));
  });
}

/** Free loopback ports; all servers stay open until every port is picked, so they differ. */
export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    while (servers.length < count) {
      const server = createServer();
      const port = FIRST_PORT + Math.floor(Math.random() * (LAST_PORT - FIRST_PORT));
      if (await listenOn(server, port)) servers.push(server);
    }
    return servers.map((s) => (s.address() as { port: number }).port);
  } finally {
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  }
}

export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  if (port === undefined) throw new Error('no free port');
  return port;
}
