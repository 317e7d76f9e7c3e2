import { fork } from 'node:child_process';
import path from 'node:path';

/** Forks the bare server (`bare-server.ts`) answering `routes` (path -> body), the ceiling a benchmark compares with. */
export async function startBareServer(routes: Record<string, unknown>): Promise<{ url: string; stop(): void }> {
  const child = fork(path.join(import.meta.dirname, 'bare-server.ts'), [], { stdio: 'inherit' });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message: { port: number }) => resolve(message.port));
    child.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
    child.send({ routes });
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => child.disconnect() };
}
