import { createHash } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import type { Cluster, Redis } from 'ioredis';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import { callerKeyOf } from '../cache/credentials.js';

/**
 * Per-client budgets in compute units per minute (rate-limiter-flexible: atomic counters in Redis,
 * shared by every replica; in-process without Redis, and an in-process insurance limiter while Redis is
 * down, so a Redis outage never lifts every budget nor fails a request).
 * A request is charged its pre-execution cost estimate (src/edge/cost.ts) before any call: a client over
 * its budget gets RATE_LIMITED with `retryAfterSec`. When it is done, the charge is settled to the CUs
 * its upstream calls actually spent (`settle`): an answer from the caches costs the client nothing.
 * A client is every identity it presents (its address, and its key when it sends one): each is charged,
 * so a new unverified key never brings a fresh budget (docs/compute-units.md).
 */
export type BudgetVerdict =
  | { ok: true; remaining: number }
  | { ok: false; retryAfterSec: number; remaining: 0 };

export interface ClientBudget {
  readonly perMinute: number;
  charge(client: string | readonly string[], cu: number): Promise<BudgetVerdict>;
  /** Corrects a charge by `delta` CUs (what was spent minus what was charged), never refusing. */
  settle(client: string | readonly string[], delta: number): Promise<void>;
}

/** Refused clients a replica remembers at most (about 100 bytes each). */
const MAX_REFUSED = 10_000;

export function createClientBudget(options: {
  perMinute: number;
  redis?: Redis | Cluster;
  keyPrefix?: string;
}): ClientBudget {
  const base = {
    points: options.perMinute,
    duration: 60,
    keyPrefix: options.keyPrefix ?? 'gw:budget',
  };
  const memory = new RateLimiterMemory(base);
  const limiter: RateLimiterAbstract = options.redis
    ? new RateLimiterRedis({
        ...base,
        storeClient: options.redis,
        insuranceLimiter: new RateLimiterMemory(base),
      })
    : memory;
  // Clients this replica saw refused, until their window ends: a Redis failover that loses a counter
  // (asynchronous replication), or the insurance limiter's fresh count while Redis is away, never lifts a
  // refusal already given.
  const refusedUntil = new Map<string, number>();
  const refusedNow = (ids: readonly string[], now: number) => {
    let until = 0;
    for (const id of ids) {
      const t = refusedUntil.get(id);
      if (t !== undefined && t <= now) refusedUntil.delete(id);
      else if (t !== undefined) until = Math.max(until, t);
    }
    return until;
  };
  const remember = (id: string, until: number) => {
    if (refusedUntil.size >= MAX_REFUSED) {
      const now = Date.now();
      for (const [k, t] of refusedUntil) if (t <= now) refusedUntil.delete(k);
      // Still full: the oldest refusal goes (bounded memory before exactness).
      if (refusedUntil.size >= MAX_REFUSED) refusedUntil.delete(refusedUntil.keys().next().value!);
    }
    refusedUntil.set(id, until);
  };
  return {
    perMinute: options.perMinute,
    async charge(client, cu) {
      const points = Math.max(1, Math.ceil(cu));
      const ids = typeof client === 'string' ? [client] : client;
      const now = Date.now();
      const until = refusedNow(ids, now);
      if (until > 0)
        return {
          ok: false,
          remaining: 0,
          retryAfterSec: Math.max(1, Math.ceil((until - now) / 1000)),
        };
      let remaining = options.perMinute;
      const charged: string[] = [];
      for (const id of ids) {
        try {
          const res = await limiter.consume(id, points);
          charged.push(id);
          remaining = Math.min(remaining, res.remainingPoints);
        } catch (e) {
          if (!(e instanceof RateLimiterRes)) continue;
          // Refused by one identity: the others are not charged for a request that does not run.
          remember(id, Date.now() + e.msBeforeNext);
          await Promise.all(charged.map((c) => limiter.reward(c, points).catch(() => {})));
          return {
            ok: false,
            remaining: 0,
            retryAfterSec: Math.max(1, Math.ceil(e.msBeforeNext / 1000)),
          };
          // (A store failure the insurance limiter did not absorb is not a reason to fail a request.)
        }
      }
      return { ok: true, remaining };
    },
    async settle(client, delta) {
      const points = Math.round(delta);
      if (points === 0) return;
      const ids = typeof client === 'string' ? [client] : client;
      // A refund may bring a refused client back under its budget: Redis decides again.
      if (points < 0) for (const id of ids) refusedUntil.delete(id);
      await Promise.all(
        ids.map((id) =>
          (points > 0 ? limiter.penalty(id, points) : limiter.reward(id, -points)).catch(() => {}),
        ),
      );
    },
  };
}

/**
 * Who a request is, for its budget: its IP, and its API key too when it sends one (hashed: a key is
 * never kept or logged). The key is not verified here, so it never stands alone: a key invented per
 * request is still charged to its address. `x-forwarded-for` is believed only from a trusted proxy,
 * read from the right: the first address that is not itself a trusted proxy is the client.
 * An address is one spelling whatever the client wrote (`clientAddress`): an IPv4-mapped IPv6 address is
 * its IPv4, and an IPv6 address counts as its /64, the block one host (one subscriber) is given, so
 * rotating through the 2^64 addresses of its own network brings no fresh budget.
 */
export function createClientIdentifier(
  trustedProxies: string[],
): (headers: Headers, peer: string | undefined) => string[] {
  const trusted = trustList(trustedProxies);
  return (headers, peer) => {
    const key = callerKeyOf(headers);
    const ip = addressOf(headers, peer);
    if (key)
      return [`key:${createHash('sha256').update(key).digest('base64url').slice(0, 22)}`, ip];
    return [ip];
  };

  function addressOf(headers: Headers, peer: string | undefined): string {
    let ip = normalizeIp(peer ?? '127.0.0.1');
    if (trusted(ip)) {
      const hops = (headers.get('x-forwarded-for') ?? '')
        .split(',')
        .map((h) => normalizeIp(h.trim()))
        .filter((h) => isIP(h) !== 0);
      for (let i = hops.length - 1; i >= 0; i--) {
        ip = hops[i]!;
        if (!trusted(ip)) break;
      }
    }
    return `ip:${clientAddress(ip)}`;
  }
}

/** The eight 16-bit groups of a canonical (WHATWG-serialised) IPv6 address. */
function groupsOf(canonical: string): number[] {
  const [head = '', tail] = canonical.split('::');
  const part = (s: string) => (s ? s.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/**
 * One spelling per address: IPv6 lower-cased and compressed (RFC 5952, as URLs serialise it), without a
 * zone; an IPv4-mapped address (`::ffff:1.2.3.4`, `::ffff:102:304`, spelt out in full) as its IPv4.
 * Anything that is not an address is returned as it came.
 */
export function normalizeIp(raw: string): string {
  const ip = raw.trim().split('%')[0]!;
  const family = isIP(ip);
  if (family !== 6) return family === 4 ? ip : raw;
  const canonical = new URL(`http://[${ip}]/`).hostname.slice(1, -1);
  const g = groupsOf(canonical);
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff)
    return [g[6]! >> 8, g[6]! & 255, g[7]! >> 8, g[7]! & 255].join('.');
  return canonical;
}

/** The address a budget is kept for: an IPv4 address itself, an IPv6 address's /64. */
export function clientAddress(ip: string): string {
  const n = normalizeIp(ip);
  if (isIP(n) !== 6) return n;
  const g = groupsOf(n).slice(0, 4);
  const prefix = new URL(`http://[${g.map((x) => x.toString(16)).join(':')}::]/`).hostname;
  return `${prefix.slice(1, -1)}/64`;
}

function trustList(entries: string[]): (ip: string) => boolean {
  if (entries.includes('*')) return () => true;
  const list = new BlockList();
  for (const entry of entries) {
    if (entry === 'loopback') {
      list.addSubnet('127.0.0.0', 8, 'ipv4');
      list.addAddress('::1', 'ipv6');
      continue;
    }
    const [addr, prefix] = entry.split('/');
    const type = isIP(addr ?? '') === 6 ? 'ipv6' : 'ipv4';
    if (!addr || isIP(addr) === 0) continue;
    if (prefix !== undefined) list.addSubnet(addr, Number(prefix), type);
    else list.addAddress(addr, type);
  }
  // BlockList.check parses the address into a SocketAddress each time (a measurable share of a cold
  // request's CPU); the few peers a server sees (its proxies, loopback) are remembered, boundedly.
  const known = new Map<string, boolean>();
  return (ip) => {
    let verdict = known.get(ip);
    if (verdict === undefined) {
      const type = isIP(ip);
      verdict = type !== 0 && list.check(ip, type === 6 ? 'ipv6' : 'ipv4');
      if (known.size >= 1_024) known.clear();
      known.set(ip, verdict);
    }
    return verdict;
  };
}
