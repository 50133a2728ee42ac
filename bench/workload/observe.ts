import { Redis } from 'ioredis';
import { cpuTimeMs } from '../serve-command.js';
import type { Proc } from './processes.js';

/**
 * What a run reads from its processes before and after a measured window: the gateways' Prometheus
 * counters, their CPU time, and Redis's own counters. Differences between two snapshots are the window's.
 */
export interface Snapshot {
  /** Counter name{labels} → value, summed over the gateways. */
  counters: Map<string, number>;
  cpuMs: number;
  redisCommands: number;
  redisHits: number;
  redisMisses: number;
}

/** Prometheus text → series (`name{labels}` as printed) → value; histograms' buckets are skipped. */
export function parseProm(text: string, into = new Map<string, number>()): Map<string, number> {
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#') || line.includes('_bucket{')) continue;
    const sp = line.lastIndexOf(' ');
    const key = line.slice(0, sp);
    const v = Number(line.slice(sp + 1));
    if (Number.isFinite(v)) into.set(key, (into.get(key) ?? 0) + v);
  }
  return into;
}

async function redisInfo(url: string | undefined) {
  if (!url) return { redisCommands: 0, redisHits: 0, redisMisses: 0 };
  const r = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await r.connect();
  const info = await r.info('stats');
  r.disconnect();
  const num = (k: string) => Number(new RegExp(`${k}:(\\d+)`).exec(info)?.[1] ?? 0);
  return {
    redisCommands: num('total_commands_processed'),
    redisHits: num('keyspace_hits'),
    redisMisses: num('keyspace_misses'),
  };
}

export async function snapshot(gateways: Proc[], redisUrl?: string): Promise<Snapshot> {
  const counters = new Map<string, number>();
  let cpuMs = 0;
  for (const g of gateways) {
    parseProm(await (await fetch(`${g.url}/metrics`)).text(), counters);
    cpuMs += cpuTimeMs(g.child.pid!);
  }
  return { counters, cpuMs, ...(await redisInfo(redisUrl)) };
}

/** Sum of the window's increase of every series whose key matches `re`. */
export function delta(a: Snapshot, b: Snapshot, re: RegExp): number {
  let sum = 0;
  for (const [k, v] of b.counters) if (re.test(k)) sum += v - (a.counters.get(k) ?? 0);
  return sum;
}

export function tierRatios(a: Snapshot, b: Snapshot) {
  const rc = (e: string) =>
    delta(a, b, new RegExp(`^gateway_response_cache_total\\{.*event="${e}"`));
  const rcHits = rc('hit') + rc('fast-hit');
  const rcAll = rcHits + rc('miss');
  const ce = (e: string) => delta(a, b, new RegExp(`^gateway_cache_events_total\\{.*event="${e}"`));
  const served = ce('hit') + ce('negative-hit') + ce('coalesced');
  const stale = ce('stale-revalidate') + ce('stale-if-error') + ce('stale-if-slow');
  const dataAll = served + stale + ce('miss');
  const rh = b.redisHits - a.redisHits;
  const rm = b.redisMisses - a.redisMisses;
  return {
    responseCache: rcAll ? rcHits / rcAll : 0,
    dataCache: dataAll ? (served + stale) / dataAll : 0,
    redis: rh + rm ? rh / (rh + rm) : 0,
    staleServedByCache: stale,
    upstream429: delta(a, b, /^gateway_upstream_request_duration_seconds_count\{.*status="429"/),
    /** Calls the governor did not send (the plan ran short), by whether a request waited for them. */
    refusedCalls: delta(a, b, /^gateway_upstream_cu_refused_total\{/),
    gatewayCu: delta(a, b, /^gateway_upstream_cu_total\{/),
  };
}
