import http from 'node:http';
import { type FreshnessSample, sampleOf } from './freshness.js';
import { type Ask, type Journey, type JourneyOptions, runJourney } from './journeys.js';
import { poissonGapMs, type Rand } from './zipf.js';

/**
 * The open-loop driver: journeys arrive as a Poisson process at `journeysPerSec` (an arrival never
 * waits for an earlier journey: a slow server sees more journeys in flight, not fewer arrivals), each
 * journey's steps run in order, and every step (one user request) is timed and checked.
 */
export interface StepRecord {
  ms: number;
  ok: boolean;
}

export interface DriveResult {
  journeys: number;
  requests: number;
  errors: number;
  /** User-visible errors by code (`extensions.code`, or the HTTP status). */
  errorCodes: Record<string, number>;
  /** The first message of each kind of error. */
  errorSamples: Record<string, string>;
  /** Answers flagged stale (`extensions.cache.stale`). */
  stale: number;
  latencies: number[];
  /** Each operation's latencies and errors (which step is slow or failing). */
  byOperation: Record<string, { latencies: number[]; errors: number }>;
  seconds: number;
  /** Journeys that could not start because MAX_IN_FLIGHT were running (counted as errors too). */
  shed: number;
  /** Answers the freshness check reads (bench/workload/freshness.ts), when the run knows its head. */
  samples: FreshnessSample[];
}

export interface Documents {
  [operation: string]: string;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

function post(
  url: URL,
  body: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(parts).toString(),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Whether an answer says it was served stale: `extensions.cache.stale` (src/plugins/use-cache-extensions.ts). */
function flaggedStale(ext: Record<string, unknown> | undefined): boolean {
  return (ext?.cache as { stale?: boolean } | undefined)?.stale === true;
}

export async function drive(o: {
  url: string;
  docs: Documents;
  journeysPerSec: number;
  seconds: number;
  rand: Rand;
  draw: (rand: Rand) => Journey;
  journey: JourneyOptions;
  maxInFlight?: number;
  /** How a journey runs (default: runJourney with `journey`); the peer's journeys ask its own operations. */
  run?: (j: Journey, ask: Ask) => Promise<void>;
  /** The world's head now: each answer of a view the freshness check reads is kept with it. */
  head?: () => number;
}): Promise<DriveResult> {
  const url = new URL(o.url);
  const res: DriveResult = {
    journeys: 0,
    requests: 0,
    errors: 0,
    errorCodes: {},
    errorSamples: {},
    stale: 0,
    latencies: [],
    byOperation: {},
    seconds: o.seconds,
    shed: 0,
    samples: [],
  };
  const fail = (code: string, operation?: string, message?: string) => {
    res.errors++;
    const key = operation ? `${operation}: ${code}` : code;
    if (message && !res.errorSamples[key]) res.errorSamples[key] = message;
    res.errorCodes[key] = (res.errorCodes[key] ?? 0) + 1;
    if (operation) opOf(operation).errors++;
  };
  const opOf = (operation: string) => (res.byOperation[operation] ??= { latencies: [], errors: 0 });
  const ask: Ask = async (operation, variables) => {
    const query = o.docs[operation];
    if (!query) throw new Error(`no operation ${operation}`);
    const t = performance.now();
    const sentAt = o.head?.();
    res.requests++;
    const took = () => {
      const ms = performance.now() - t;
      res.latencies.push(ms);
      opOf(operation).latencies.push(ms);
    };
    try {
      const r = await post(url, JSON.stringify({ query, operationName: operation, variables }));
      took();
      const body = JSON.parse(r.text) as {
        data?: unknown;
        errors?: { message?: string; extensions?: { code?: string } }[];
        extensions?: Record<string, unknown>;
      };
      if (r.status !== 200 || body.errors?.length)
        fail(
          body.errors?.[0]?.extensions?.code ?? `HTTP ${r.status}`,
          operation,
          `${body.errors?.[0]?.message} ${JSON.stringify(variables)}`,
        );
      if (flaggedStale(body.extensions)) res.stale++;
      if (sentAt !== undefined && o.head) {
        const sample = sampleOf(operation, variables, body.data as never, sentAt, o.head());
        if (sample) res.samples.push({ ...sample, flaggedStale: flaggedStale(body.extensions) });
      }
      return body.data;
    } catch (err) {
      took();
      fail((err as NodeJS.ErrnoException).code ?? 'network', operation);
      return undefined;
    }
  };
  const run = o.run ?? ((j: Journey, a: Ask) => runJourney(j, a, o.journey));
  const max = o.maxInFlight ?? 5_000;
  let inFlight = 0;
  const running = new Set<Promise<void>>();
  const start = performance.now();
  const end = start + o.seconds * 1000;
  let next = start;
  while (next < end) {
    next += poissonGapMs(o.rand, o.journeysPerSec);
    const wait = next - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    if (performance.now() >= end) break;
    const j = o.draw(o.rand);
    res.journeys++;
    if (inFlight >= max) {
      res.shed++;
      fail('shed');
      continue;
    }
    inFlight++;
    const p = run(j, ask).finally(() => {
      inFlight--;
      running.delete(p);
    });
    running.add(p);
  }
  await Promise.all(running);
  res.seconds = (performance.now() - start) / 1000;
  return res;
}

export const quantile = (xs: number[], q: number): number => {
  if (xs.length === 0) return 0;
  const s = Float64Array.from(xs).sort();
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};
