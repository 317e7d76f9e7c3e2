import { createServer, type Server } from 'node:net';

/**
 * Ports are picked at random below Linux's ephemeral range (32768 and up), from which port 0 and
 * every outgoing connection draw: a port freed by a killed process then stays free for its
 * restart rather than going to the next platform that asks for a free port.
 */
const FIRST_PORT = 20_000;
const LAST_PORT = 32_000;
/** Jest workers each pick from their own slice, so two platforms starting at once never pick the same port. */
const WORKER_SLICES = 4;

/** The range this process picks from: the whole range, or its jest worker's slice of it. */
export function portRange(workerId = process.env['JEST_WORKER_ID']): { first: number; last: number } {
  const worker = Number(workerId);
  if (!Number.isInteger(worker) || worker < 1) return { first: FIRST_PORT, last: LAST_PORT };
  const size = Math.floor((LAST_PORT - FIRST_PORT) / WORKER_SLICES);
  const first = FIRST_PORT + ((worker - 1) % WORKER_SLICES) * size;
  return { first, last: first + size };
}

/**
 * Ports already handed out by this process. A port is free when picked but its process binds it
 * later; without this, the next pick (another service of the same platform) could take it first.
 */
const handedOut = new Set<number>();

function listenOn(server: Server, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => resolve(true));
  });
}

/** Free loopback ports, all different and none handed out before by this process. */
export async function freePorts(count: number): Promise<number[]> {
  const { first, last } = portRange();
  const servers: Server[] = [];
  try {
    while (servers.length < count) {
      if (handedOut.size >= last - first) handedOut.clear();
      const port = first + Math.floor(Math.random() * (last - first));
      if (handedOut.has(port)) continue;
      const server = createServer();
      if (await listenOn(server, port)) {
        servers.push(server);
        handedOut.add(port);
      }
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
