import { randomUUID } from 'node:crypto';
import type { Cluster, Redis } from 'ioredis';

/**
 * Coalesces cache misses across replicas. The first replica to miss a key takes a short lease on it in
 * Redis (`SET key:lease NX PX leaseMs`) and loads; the others poll the shared store for the value every
 * `pollMs` until it appears, the lease is released without one (the load failed), or `leaseMs` passes —
 * then they load themselves. The holder reads the store once more before it loads: the caller's miss
 * came before the lease, and a peer may have stored the value and let the lease go in between. So a replica that dies holding a lease costs the others at most `leaseMs`.
 * Redis trouble never blocks a load: any error means "load yourself".
 */
export type AcrossProcesses = <T>(
  key: string,
  load: () => Promise<T>,
  readBack: () => Promise<T | undefined>,
) => Promise<T>;

export interface MissLeaseOptions {
  redis: Redis | Cluster;
  leaseMs: number;
  /** @default 20 */
  pollMs?: number;
  onEvent?: (event: 'lease-held' | 'lease-waited' | 'lease-expired') => void;
}

const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Takes leases, settling every lease asked for in one tick together: the loads of one DataLoader
 * batch then start in the same tick, so what batches downstream (a JSON-RPC batch of EVM reads)
 * stays one batch. Each key is its own command, so a Redis Cluster needs no common slot.
 */
function leaseTaker(o: MissLeaseOptions): (leaseKey: string, token: string) => Promise<boolean> {
  let group: Promise<boolean>[] | undefined;
  let settled: Promise<unknown> | undefined;
  return (leaseKey, token) => {
    if (!group) {
      const current: Promise<boolean>[] = [];
      group = current;
      settled = new Promise((resolve) => {
        process.nextTick(() => {
          group = undefined;
          void Promise.allSettled(current).then(resolve);
        });
      });
    }
    const mine = o.redis.set(leaseKey, token, 'PX', o.leaseMs, 'NX').then((r) => r === 'OK');
    group.push(mine);
    const all = settled!;
    return all.then(() => mine);
  };
}

export function createMissLease(o: MissLeaseOptions): AcrossProcesses {
  const pollMs = o.pollMs ?? 20;
  const take = leaseTaker(o);
  return async (key, load, readBack) => {
    const leaseKey = `${key}:lease`;
    const token = randomUUID();
    let held: boolean;
    try {
      held = await take(leaseKey, token);
    } catch {
      return load();
    }
    if (held) {
      try {
        // A peer may have loaded, stored and released between our caller's miss and this lease: the
        // lease is free again, but the value is in the store. Read it once more before loading, or
        // the key is loaded twice (seen as 50 concurrent cold queries over three replicas costing
        // two upstream calls more than one query).
        let v: Awaited<ReturnType<typeof readBack>>;
        try {
          v = await readBack();
        } catch {
          v = undefined;
        }
        if (v !== undefined) {
          o.onEvent?.('lease-waited');
          return v;
        }
        o.onEvent?.('lease-held');
        // `load` stores the value before it resolves: waiters find it as soon as the lease is gone.
        return await load();
      } finally {
        await o.redis.eval(RELEASE, 1, leaseKey, token).catch(() => {});
      }
    }
    const deadline = Date.now() + o.leaseMs;
    try {
      while (Date.now() < deadline) {
        await sleep(pollMs);
        const v = await readBack();
        if (v !== undefined) {
          o.onEvent?.('lease-waited');
          return v;
        }
        if ((await o.redis.exists(leaseKey)) === 0) break;
      }
      const v = await readBack();
      if (v !== undefined) {
        o.onEvent?.('lease-waited');
        return v;
      }
    } catch {
      // Redis trouble: load ourselves.
    }
    o.onEvent?.('lease-expired');
    return load();
  };
}
