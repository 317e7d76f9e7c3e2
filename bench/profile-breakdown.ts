/**
 * Where a gateway's CPU went, from its `node --cpu-prof` profile: each sample is charged to the
 * nearest frame on its stack that names a stage of the hop (signing the caller, the
 * authentication cache, route match, metrics, request id and logging, proxying, express and the
 * gateway's handler, Node's HTTP server), to what runs beside requests (the Kafka feed, the gRPC
 * channel), or to system calls writing to sockets, garbage collection, or the rest (event loop,
 * streams, promises, timers). Module loading and idle time
 * are left out, so the shares are of the time spent serving.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const SOCKET_WRITES = new Set(['writev', 'writeLatin1String', 'writeBuffer', 'writeUtf8String', 'writeAsciiString']);
const STARTUP = 'startup';

/** The stage a frame belongs to, if it names one; first match wins. */
const STAGES: Array<[stage: string, matches: (url: string, name: string) => boolean]> = [
  [STARTUP, (url, name) => url.includes('node:internal/modules') || name === 'compileSourceTextModule'],
  ['signing the caller', (url) => url.includes('libs/auth/')],
  // Not per request: identity's events (the token cache's invalidation) and the gRPC channel.
  [
    'background (Kafka feed, gRPC channel)',
    (url) => ['kafkajs', '@grpc/', 'libs/events/', 'libs/grpc/', 'auth-invalidation.ts'].some((part) => url.includes(part)),
  ],
  ['authentication cache', (url) => url.includes('/src/authenticator.ts') || url.includes('lru-cache')],
  ['route match', (url) => url.includes('/src/route-table.ts')],
  ['metrics', (url) => url.includes('prom-client') || url.includes('libs/http/src/metrics.ts')],
  ['request id and logging', (url) => url.includes('request-logging.ts') || url.includes('libs/logger/')],
  [
    'proxying',
    (url) =>
      ['undici', 'cockatiel', '/src/upstreams.ts', '@opentelemetry', 'http-proxy', 'httpxy', 'node:_http_client', 'node:_http_agent'].some(
        (part) => url.includes(part),
      ) || url.startsWith('wasm'),
  ],
  [
    'express and the gateway handler',
    (url) => ['express/', '/router/', 'libs/http/', '/src/gateway-app.ts', 'proxy-addr', 'forwarded'].some((part) => url.includes(part)),
  ],
  ['Node http server', (url, name) => url.includes('node:_http_') || name === 'parse'],
];

/** Milliseconds of CPU by stage, largest first, without startup and idle time. */
export function profileBreakdown(file: string): Array<{ stage: string; ms: number }> {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const stageOfNode = new Map<number, string>();
  const stageOf = (id: number): string => {
    const known = stageOfNode.get(id);
    if (known !== undefined) return known;
    const { functionName } = nodes.get(id)!.callFrame;
    let stage: string | undefined;
    let startup = false;
    for (let current: number | undefined = id; current !== undefined; current = parents.get(current)) {
      const { url, functionName: name } = nodes.get(current)!.callFrame;
      const named = STAGES.find(([, matches]) => matches(url, name))?.[0];
      if (named === STARTUP) startup = true;
      stage ??= named;
    }
    if (functionName === '(idle)' || functionName === '(program)' || startup) stage = STARTUP;
    else if (functionName === '(garbage collector)') stage = 'garbage collection';
    else if (SOCKET_WRITES.has(functionName)) stage = 'system calls writing to sockets';
    stage ??= 'other (event loop, streams, promises, timers)';
    stageOfNode.set(id, stage);
    return stage;
  };
  const microseconds = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    const stage = stageOf(id);
    microseconds.set(stage, (microseconds.get(stage) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  microseconds.delete(STARTUP);
  return [...microseconds].map(([stage, us]) => ({ stage, ms: us / 1000 })).sort((a, b) => b.ms - a.ms);
}
