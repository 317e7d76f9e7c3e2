/**
 * An open-loop load generator: request i is due at t0 + i/rate whatever happened to earlier
 * ones, and its latency counts from that due time, so a server that falls behind shows its
 * queue instead of slowing the generator down (no coordinated omission). autocannon's
 * `overallRate` sends each second's quota in a burst, which is not this.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';

/** Milliseconds after the start at which request `index` is due, at `rate` requests per second. */
export function dueOffsetMs(index: number, rate: number): number {
  return (index * 1000) / rate;
}

/** How many requests a run of `durationSeconds` at `rate` sends. */
export function requestCount(rate: number, durationSeconds: number): number {
  return Math.floor(rate * durationSeconds);
}

/** The requests due by `elapsedMs`, given that `sent` have gone already: indexes [sent, result). */
export function dueBy(elapsedMs: number, sent: number, total: number, rate: number): number {
  let next = sent;
  while (next < total && dueOffsetMs(next, rate) <= elapsedMs) next += 1;
  return next;
}

/** Nearest-rank percentile of ascending `sorted` values; 0 for none. */
export function percentile(sorted: ArrayLike<number>, fraction: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.max(1, Math.ceil(fraction * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] ?? 0;
}

export interface OpenLoopResult {
  rate: number;
  durationSeconds: number;
  sent: number;
  /** Responses with a 2xx status, or 304 to a conditional request (an SDK's poll with the last ETag). */
  ok: number;
  non2xx: number;
  /** Connection errors and requests still unanswered at the drain deadline. */
  errors: number;
  /** Responses per second between the first due time and the last response. */
  achievedRate: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** One request of a mix: its path (under `url`'s origin), method, headers and body. */
export interface OpenLoopRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface OpenLoopOptions {
  url: string;
  headers?: Record<string, string>;
  /** GET unless given. */
  method?: string;
  /** The body of request `index` (a POST's), when there is one. */
  body?: (index: number) => string;
  /** What request `index` does instead of the above, when requests differ (a mix of clients' calls). */
  request?: (index: number) => OpenLoopRequest;
  rate: number;
  durationSeconds: number;
  /** Keep-alive connections the generator may open; more requests wait for one (and that wait counts). */
  sockets?: number;
  /** How long requests still in flight after the last one was due may take before they count as errors. */
  drainMs?: number;
}

/** Runs one constant-arrival-rate load against `url` and summarises it, latencies in milliseconds. */
export async function openLoop(options: OpenLoopOptions): Promise<OpenLoopResult> {
  const target = new URL(options.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.sockets ?? 256 });
  const total = requestCount(options.rate, options.durationSeconds);
  const latencies = new Float64Array(total);
  let answered = 0;
  let ok = 0;
  let non2xx = 0;
  let errors = 0;
  let lastAnswerAt = 0;
  const pending = new Set<http.ClientRequest>();
  let allAnswered: () => void = () => {};
  const finished = new Promise<void>((resolve) => (allAnswered = resolve));
  const startAt = performance.now() + 10;

  const settle = (request: http.ClientRequest) => {
    pending.delete(request);
    lastAnswerAt = performance.now();
    answered += 1;
    if (answered === total) allAnswered();
  };

  const send = (index: number) => {
    const dueAt = startAt + dueOffsetMs(index, options.rate);
    let done = false;
    const finish = (status: number | undefined) => {
      if (done) return;
      done = true;
      latencies[index] = performance.now() - dueAt;
      if (status === undefined) errors += 1;
      else if ((status >= 200 && status < 300) || status === 304) ok += 1;
      else non2xx += 1;
      settle(request);
    };
    const own = options.request?.(index);
    const body = own ? own.body : options.body?.(index);
    const headers = own?.headers ?? options.headers;
    const request = http.request(
      {
        agent,
        method: own?.method ?? options.method ?? 'GET',
        host: target.hostname,
        port: target.port,
        path: own?.path ?? `${target.pathname}${target.search}`,
        headers: body === undefined ? headers : { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
      },
      (response) => {
        response.on('data', () => {});
        response.on('end', () => finish(response.statusCode ?? 0));
        response.on('error', () => finish(undefined));
      },
    );
    request.on('error', () => finish(undefined));
    pending.add(request);
    request.end(body);
  };

  let sent = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const due = dueBy(performance.now() - startAt, sent, total, options.rate);
      for (; sent < due; sent += 1) send(sent);
      if (sent >= total) return resolve();
      const wait = startAt + dueOffsetMs(sent, options.rate) - performance.now();
      setTimeout(tick, Math.max(0, wait));
    };
    setTimeout(tick, Math.max(0, startAt - performance.now()));
  });
  if (total === 0) allAnswered();
  const drain = setTimeout(() => {
    // Whatever is still unanswered counts as failed, with the latency it had reached.
    for (const request of [...pending]) request.destroy(new Error('drain deadline'));
  }, options.drainMs ?? 10_000);
  await finished;
  clearTimeout(drain);
  agent.destroy();

  const sorted = latencies.sort();
  const elapsedSeconds = Math.max((lastAnswerAt - startAt) / 1000, options.durationSeconds);
  const round = (value: number) => Math.round(value * 10) / 10;
  return {
    rate: options.rate,
    durationSeconds: options.durationSeconds,
    sent: total,
    ok,
    non2xx,
    errors,
    achievedRate: round(ok / elapsedSeconds),
    p50: round(percentile(sorted, 0.5)),
    p90: round(percentile(sorted, 0.9)),
    p99: round(percentile(sorted, 0.99)),
    max: round(sorted[sorted.length - 1] ?? 0),
  };
}

/** GitLab Performance Tool's verdict: at least 0.8 of the rate, more than 99.9% 2xx, p90 within target. */
export function verdict(result: OpenLoopResult, p90TargetMs: number): { pass: boolean; reasons: string[] } {
  const reasons: string[] = [];
  if (result.achievedRate < 0.8 * result.rate) reasons.push(`achieved ${result.achievedRate}/s < 0.8 x ${result.rate}/s`);
  if (result.sent > 0 && result.ok / result.sent <= 0.999) reasons.push(`2xx ${((100 * result.ok) / result.sent).toFixed(2)}% <= 99.9%`);
  if (result.p90 > p90TargetMs) reasons.push(`p90 ${result.p90} ms > ${p90TargetMs} ms`);
  return { pass: reasons.length === 0, reasons };
}
