/**
 * A real Prometheus Alertmanager (Debian's `prometheus-alertmanager`) for end-to-end tests: one
 * webhook receiver, which delivers firing and resolved alerts at once, with an integration's key
 * as its Bearer credentials.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '@platform/devstack';
import { waitFor } from '@platform/testing';

const BINARY = '/usr/bin/prometheus-alertmanager';
export const ALERTMANAGER_INSTALL = 'apt-get install -y prometheus-alertmanager (or sh scripts/bootstrap.sh as root)';

export interface RunningAlertmanager {
  url: string;
  /** Sends alerts to Alertmanager's API, as Prometheus does; an `endsAt` in the past resolves one. */
  push(
    alerts: Array<{ labels: Record<string, string>; annotations?: Record<string, string>; startsAt?: string; endsAt?: string }>,
  ): Promise<void>;
  stop(): Promise<void>;
}

export async function startAlertmanager(options: { webhookUrl: string; bearerKey: string }): Promise<RunningAlertmanager> {
  if (!existsSync(BINARY)) throw new Error(`Prometheus Alertmanager is not installed (${BINARY}); install it: ${ALERTMANAGER_INSTALL}`);
  const dir = mkdtempSync(path.join(tmpdir(), 'alertmanager-'));
  // Deliver each group at once and again within a second of a change, so that tests wait little.
  writeFileSync(
    path.join(dir, 'alertmanager.yml'),
    `route:
  receiver: platform
  group_by: ['alertname']
  group_wait: 0s
  group_interval: 1s
  repeat_interval: 1h
receivers:
  - name: platform
    webhook_configs:
      - url: ${JSON.stringify(options.webhookUrl)}
        send_resolved: true
        http_config:
          authorization:
            type: Bearer
            credentials: ${JSON.stringify(options.bearerKey)}
`,
  );
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child: ChildProcess = spawn(
    BINARY,
    [
      `--config.file=${path.join(dir, 'alertmanager.yml')}`,
      `--storage.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      // A single instance: no gossip port to open.
      '--cluster.listen-address=',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitFor(async () => ((await fetch(`${url}/-/ready`).catch(() => undefined))?.ok ? true : undefined), {
      timeoutMs: 20_000,
      what: 'Alertmanager to get ready',
    });
  } catch (error) {
    await stop();
    throw new Error(`${String(error)}\n${output}`, { cause: error });
  }
  return {
    url,
    async push(alerts) {
      const response = await fetch(`${url}/api/v2/alerts`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(alerts),
      });
      if (!response.ok) throw new Error(`Alertmanager refused the alerts: ${response.status} ${await response.text()}`);
    },
    stop,
  };
}
