/**
 * The ceiling: a bare express server answering each benchmarked path (any method) with the body
 * the platform gave, from memory. Runs as its own process (forked by the benchmark) so that it does not share
 * an event loop with the load generator. Receives `{ routes: { path: body } }`, answers `{ port }`.
 */
import type { AddressInfo } from 'node:net';
import express from 'express';

process.once('message', (message: { routes: Record<string, unknown> }) => {
  const app = express();
  for (const [path, body] of Object.entries(message.routes)) app.all(path, (_req, res) => void res.json(body));
  const server = app.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
  process.once('disconnect', () => server.close(() => process.exit(0)));
});
