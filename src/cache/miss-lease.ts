import { randomUUID } from 'node:crypto';
import type { Cluster, Redis } from 'ioredis';

/**
 * Coalesces cache misses across replicas. The first replica to miss a key takes a short lease on it in
 * Redis (`SET key:lease NX PX leaseMs`) and loads; the others poll the shared store for the value every
 * `pollMs` until it appears, the lease is released without one (the load failed), or `leaseMs` passes —
 * then they load themselves. So a replica that dies holding a lease costs the others at most `leaseMs`.
 * Redis trouble never blocks a load: any error means "load yourself".
 */
export type AcrossProcesses = <T>(key: string, load: () => Promise<T>, readBack: () => Promise<T | undefined>) => Promise<T>;

export interface MissLeaseOptions {
  redis: Redis | Cluster;
  leaseMs: number;
  /** @default 20 */
  pollMs?: number;
  onEvent?: (event: 'lease-held' | 'lease-waited' | 'lease-expired') => void;
}

const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function createMissLease(o: MissLeaseOptions): AcrossProcesses {
  const pollMs = o.pollMs ?? 20;
  return async (key, load, readBack) => {
    const leaseKey = `${key}:lease`;
    const token = randomUUID();
    let held: boolean;
    try {
      held = (await o.redis.set(leaseKey, token, 'PX', o.leaseMs, 'NX')) === 'OK';
    } catch {
      return load();
    }
    if (held) {
      o.onEvent?.('lease-held');
      try {
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
