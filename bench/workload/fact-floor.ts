import { loadConfig } from '../../src/config.js';
import { createGateway } from '../../src/gateway.js';
import { countCu, diffStats } from './cu.js';
import type { Documents } from './driver.js';
import type { Floor, FloorSegment } from './floor.js';
import { type Ask, type JourneyOptions, runJourney } from './journeys.js';
import type { World } from './setup.js';

/**
 * The fact floor: the same windows replayed through the gateway itself, with its facts (a list's
 * entities, a plain transfer's page, a page 2 from a page of 100) but no freshness at all: every answer
 * kept for the whole replay (every cache class's TTL a day, no live heads). Where the first-visit floor
 * (floor.ts) is a perfect cache of exact requests, this one is a perfect cache of what the gateway
 * knows; a run's gateway lies above both by what its freshness costs. Replayed in the window's own time
 * (each journey at the head it arrived at), one gateway (one empty cache) per replica set.
 */
const DAY_MS = 86_400_000;
const NO_FRESHNESS = { immutable: DAY_MS, head: DAY_MS, tokenPage: DAY_MS, slow: DAY_MS };

export async function factFloor(
  world: World,
  opts: JourneyOptions,
  docs: Documents,
  sets: FloorSegment[][],
): Promise<Map<number, Floor>> {
  const out = new Map<number, Floor>();
  for (const segments of sets) {
    const config = loadConfig({
      DATA_API_URL: world.sim.dataApiUrl,
      METRICS_API_URL: world.sim.metricsApiUrl,
      NODE_RPC_URL: world.sim.nodeUrl,
      LOG_LEVEL: 'silent',
      CURSOR_SECRET: 'fact-floor-cursor-secret-of-at-least-32-characters',
      UPSTREAM_CU_PER_MINUTE: '0',
      CLIENT_CU_PER_MINUTE: '0',
      UPSTREAM_TIMEOUT_MS: '10000',
      MEMORY_CACHE_MAX_BYTES: String(4 * 1024 ** 3),
      MEMORY_CACHE_MAX_ENTRIES: '5000000',
    });
    const gw = createGateway(config, { ttlOverrides: NO_FRESHNESS });
    await gw.ready();
    let steps = 0;
    const ask: Ask = async (operation, variables) => {
      steps++;
      const res = await gw.yoga.fetch('http://fact-floor/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ query: docs[operation], operationName: operation, variables }),
      });
      return ((await res.json()) as { data?: unknown }).data;
    };
    try {
      for (const seg of segments) {
        const s0 = await world.control.stats();
        steps = 0;
        const queue = [...seg.journeys];
        await Promise.all(
          Array.from({ length: 16 }, async () => {
            for (let j = queue.shift(); j; j = queue.shift()) await runJourney(j, ask, opts);
          }),
        );
        if (seg.row === undefined) continue;
        const cu = countCu(diffStats(s0, await world.control.stats()));
        out.set(seg.row, {
          total: cu.total,
          byUpstream: cu.byUpstream,
          byRoute: cu.byRoute,
          steps,
        });
      }
    } finally {
      await gw.close();
    }
  }
  return out;
}
