import { type CuCount, countCu, diffStats } from './cu.js';
import { type DirectApi, directApi, runDirect } from './direct.js';
import type { Journey, JourneyOptions } from './journeys.js';
import type { World } from './setup.js';

/**
 * The first-visit floor: what a perfect cache (every answer kept for ever, no freshness at all) would
 * spend on a measured window. The journeys drawn before and in each window are replayed as the direct
 * baseline's view elements through one memo per replica set: an upstream request is paid the first
 * time its exact URL (or JSON-RPC method and params) is asked, and never again. A window's floor is what
 * its first visits cost; a cache that keeps its freshness promises can only spend more.
 */
export interface FloorSegment {
  /** Journeys drawn in this segment (warm-up or a measured window), in order. */
  journeys: Journey[];
  /** A measured window's row index, or undefined for a warm-up (paid, not reported). */
  row?: number;
}

function memoized(api: DirectApi): DirectApi {
  const seen = new Map<string, Promise<unknown>>();
  const once = <T>(key: string, call: () => Promise<T>): Promise<T> => {
    let p = seen.get(key) as Promise<T> | undefined;
    if (!p) {
      p = call();
      seen.set(key, p);
    }
    return p;
  };
  const q = (query?: Record<string, string | undefined>) =>
    JSON.stringify(Object.entries(query ?? {}).filter((e) => e[1] !== undefined));
  return {
    data: (path, query) => once(`d ${path} ${q(query)}`, () => api.data(path, query)),
    metrics: (path, query) => once(`m ${path} ${q(query)}`, () => api.metrics(path, query)),
    rpc: (method, params) =>
      once(`r ${method} ${JSON.stringify(params)}`, () => api.rpc(method, params)),
  };
}

/** A measured window's floor: its CUs (total and by upstream) and the user requests its replay made. */
export interface Floor {
  total: number;
  byUpstream: Record<string, number>;
  byRoute: CuCount['byRoute'];
  /** User requests of the replayed visits (each journey's steps, as the gateway would take them). */
  steps: number;
}

/**
 * Per replica set, its segments in order; answers each measured row's floor. Each journey is replayed in
 * its own time (the head it arrived at: the blocks its user saw), so the chain must already hold them.
 */
export async function firstVisitFloor(
  world: World,
  opts: JourneyOptions,
  sets: FloorSegment[][],
): Promise<Map<number, Floor>> {
  const out = new Map<number, Floor>();
  for (const segments of sets) {
    const api = memoized(directApi(world.sim));
    for (const seg of segments) {
      const s0 = await world.control.stats();
      const queue = [...seg.journeys];
      let steps = 0;
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          for (let j = queue.shift(); j; j = queue.shift()) {
            const n = await runDirect(j, api, opts);
            steps += n;
          }
        }),
      );
      if (seg.row === undefined) continue;
      const cu = countCu(diffStats(s0, await world.control.stats()));
      out.set(seg.row, { total: cu.total, byUpstream: cu.byUpstream, byRoute: cu.byRoute, steps });
    }
  }
  return out;
}
