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

/** A lease asked for: whether it is ours, and if so what the store holds now (read once more). */
type Taken<T> = { held: false } | { held: true; found: T | undefined };

/**
 * Takes leases, settling every lease asked for in one tick together: the loads of one DataLoader
 * batch then start in the same tick, so what batches downstream (a JSON-RPC batch of EVM reads)
 * stays one batch. Each key is its own command, so a Redis Cluster needs no common slot.
 *
 * A lease taken is followed by one more read of the store, within the same settling: the caller's
 * miss came before the lease, and a peer may have loaded, stored and let the lease go in between (the
 * lease is then free, the value in the store). Without that read the key would be loaded twice (seen
 * as 50 concurrent cold queries over three replicas costing two upstream calls more than one query);
 * outside the settling, each read's own reply would start its load in a tick of its own.
 */
function leaseTaker(
  o: MissLeaseOptions,
): <T>(
  leaseKey: string,
  token: string,
  readBack: () => Promise<T | undefined>,
) => Promise<Taken<T>> {
  let group: Promise<unknown>[] | undefined;
  let settled: Promise<unknown> | undefined;
  return <T>(leaseKey: string, token: string, readBack: () => Promise<T | undefined>) => {
    if (!group) {
      const current: Promise<unknown>[] = [];
      group = current;
      settled = new Promise((resolve) => {
        process.nextTick(() => {
          group = undefined;
          void Promise.allSettled(current).then(resolve);
        });
      });
    }
    const mine: Promise<Taken<T>> = o.redis
      .set(leaseKey, token, 'PX', o.leaseMs, 'NX')
      .then(async (r) => {
        if (r !== 'OK') return { held: false };
        // A failed read is a miss: the holder loads.
        const found = await readBack().catch(() => undefined);
        return { held: true, found };
      });
    group.push(mine);
    const all = settled!;
    return all.then(() => mine);
  };
}

export function createMissLease(options: MissLeaseOptions): AcrossProcesses {
  const pollMs = options.pollMs ?? 20;
  const take = leaseTaker(options);
  return async <T>(
    key: string,
    load: () => Promise<T>,
    readBack: () => Promise<T | undefined>,
  ): Promise<T> => {
    const leaseKey = `${key}:lease`;
    const token = randomUUID();
    let taken: Taken<T>;
    try {
      taken = await take(leaseKey, token, readBack);
    } catch {
      return load();
    }
    if (taken.held) {
      try {
        if (taken.found !== undefined) {
          options.onEvent?.('lease-waited');
          return taken.found;
        }
        options.onEvent?.('lease-held');
        // `load` stores the value before it resolves: waiters find it as soon as the lease is gone.
        return await load();
      } finally {
        await options.redis.eval(RELEASE, 1, leaseKey, token).catch(() => {});
      }
    }
    const deadline = Date.now() + options.leaseMs;
    try {
      while (Date.now() < deadline) {
        await sleep(pollMs);
        const v = await readBack();
        if (v !== undefined) {
          options.onEvent?.('lease-waited');
          return v;
        }
        if ((await options.redis.exists(leaseKey)) === 0) break;
      }
      const v = await readBack();
      if (v !== undefined) {
        options.onEvent?.('lease-waited');
        return v;
      }
    } catch {
      // Redis trouble: load ourselves.
    }
    options.onEvent?.('lease-expired');
    return load();
  };
}
