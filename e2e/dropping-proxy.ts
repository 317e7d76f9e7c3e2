/**
 * A TCP proxy between the gateway and a service that can lose a connection at the worst moment:
 * after the service received a request (and acted on it), before its answer reaches the gateway.
 * Everything else passes through untouched.
 */
import net from 'node:net';

const REQUEST_LINE = /^([A-Z]+) (\S+) HTTP\/1\.[01]\r\n/;

export interface DroppingProxy {
  url: string;
  /** Where connections go; set once the service listens. */
  setTarget(url: string): void;
  /** The request lines (`POST /api/v4/...`) that went through, in order. */
  requestLines(): string[];
  /**
   * The next request whose request line matches loses its connection as soon as the service
   * starts answering; resolves once that happened.
   */
  dropAnswerTo(requestLine: RegExp): Promise<void>;
  close(): Promise<void>;
}

export async function startDroppingProxy(): Promise<DroppingProxy> {
  let target: URL | undefined;
  const lines: string[] = [];
  let armed: { matches: RegExp; dropped: () => void } | undefined;
  const sockets = new Set<net.Socket>();

  const server = net.createServer((client) => {
    if (!target) {
      client.destroy();
      return;
    }
    const upstream = net.connect({ host: target.hostname, port: Number(target.port) });
    sockets.add(client).add(upstream);
    let doomed: (() => void) | undefined;
    client.on('data', (chunk: Buffer) => {
      // The gateway writes each request's head in one chunk that starts with the request line.
      const line = REQUEST_LINE.exec(chunk.toString('latin1'));
      if (line) {
        const requestLine = `${line[1]} ${line[2]}`;
        lines.push(requestLine);
        if (armed?.matches.test(requestLine)) {
          doomed = armed.dropped;
          armed = undefined;
        }
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (doomed) {
        client.destroy();
        upstream.destroy();
        doomed();
        return;
      }
      client.write(chunk);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    for (const socket of [client, upstream]) {
      socket.on('error', end);
      socket.on('close', end);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    setTarget(url) {
      target = new URL(url);
    },
    requestLines: () => [...lines],
    dropAnswerTo(requestLine) {
      return new Promise((resolve) => (armed = { matches: requestLine, dropped: resolve }));
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
