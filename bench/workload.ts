import { mkdirSync, writeFileSync } from 'node:fs';
import { loadConfig } from '../src/config.js';
import { startRedisServer } from '../test/support/redis.js';
import { buildGateway, gatewayEnv } from './serve-command.js';
import { type CuCount, countCu, diffStats } from './workload/cu.js';
import { directApi, runDirect } from './workload/direct.js';
import { loadDocuments } from './workload/documents.js';
import { drive, quantile } from './workload/driver.js';
import { factFloor } from './workload/fact-floor.js';
import { type FloorSegment, firstVisitFloor } from './workload/floor.js';
import { checkFreshness, type FreshnessReport, simulatorTruth } from './workload/freshness.js';
import { type Journey, journeyDrawer } from './workload/journeys.js';
import { workloadKnobs } from './workload/knobs.js';
import { snapshot, tierRatios } from './workload/observe.js';
import { peerComparison } from './workload/peer-run.js';
import { startGateways, startWorld } from './workload/setup.js';
import { poissonGapMs, seeded, zipfHead } from './workload/zipf.js';

/**
 * `npm run bench:workload`: what users do, not one query. Journeys (bench/workload/journeys.ts) arrive
 * as a Poisson process against 1 and 3 gateway replicas behind HAProxy on one Redis, the simulator in
 * its own process moving one block every 2 s; the rate rises until p99 passes 100 ms or errors appear.
 * CUs are counted at the simulator and priced by its own ledger (packages/simulator/src/prices.ts), for the gateway, for the
 * direct baseline (a frontend calling the upstreams itself) and for the peer. Knobs: bench/workload/knobs.ts.
 */
const k = workloadKnobs();
const docs = loadDocuments();
buildGateway();
// The gateway runs: the simulator charges the plan, the gateways govern themselves by it.
let world = await startWorld(k, {
  ...(k.simCuPerMinute > 0 ? { SIM_CU_PER_MINUTE: String(k.simCuPerMinute) } : {}),
  ...k.simEnv,
});
const redis = await startRedisServer();
const journeyOpts = { head: () => world.head(), pop: world.pop };
const draw = journeyDrawer(world.pop, k.zipfS);
// On top of every bench gateway's settings (serve-command.ts gatewayEnv: no per-client budget, as one
// bench client stands for many users).
const gatewaySettings = {
  UPSTREAM_CU_PER_MINUTE: String(k.governorCuPerMinute),
  // Heads over the node's websocket, as production runs: head entries follow the head, address
  // entries the blocks that touch them (LIVE_ADDRESS_FRESHNESS).
  ...(k.live ? { LIVE_WS: `43114=${world.sim.url.replace(/^http/, 'ws')}/node/ext/bc/C/ws` } : {}),
  ...(k.addressFreshness ? { LIVE_ADDRESS_FRESHNESS: k.addressFreshness } : {}),
  ...k.gatewayEnv,
};
const f1 = (x: number) => x.toFixed(1);
const f2 = (x: number) => x.toFixed(2);
console.log(
  `simulator plan ${k.simCuPerMinute || 'none'} CU/min, governor ${k.governorCuPerMinute || 'off'} CU/min; population ${k.population} (addresses: ${world.pop.worldAddresses} of the world's, validators: ${world.pop.worldValidators}), ` +
    `Zipf s=${k.zipfS}: the world's addresses receive ${f1(100 * zipfHead(k.population, k.zipfS, world.pop.worldAddresses))} % of address draws; ` +
    `head ${world.head()}; simulator latency ${k.simLatencyMs} ms; LIVE_WS ${k.live ? `on (address freshness: ${k.addressFreshness ?? 'touch, the default'})` : 'off'}`,
);

interface Row {
  replicas: number;
  offered: number;
  achieved: number;
  perCore: number;
  p50: number;
  p99: number;
  errors: number;
  errorCodes: Record<string, number>;
  cuPer1000: number;
  cuPerMinute: number;
  /** CUs per 1,000 user requests by upstream (the Data API's plan counts only its own). */
  cuPer1000ByUpstream: Record<string, number>;
  responseCache: number;
  dataCache: number;
  redisHit: number;
  redisPerRequest: number;
  upstream429: number;
  staleFlagged: number;
  staleByCache: number;
  rssPeakMb: number;
  requests: number;
  refusedCalls: number;
  /** The first-visit floor's CUs per 1,000 user requests (bench/workload/floor.ts). */
  floorPer1000?: number;
  /** The same, Data API and node only (the plan's upstreams). */
  floorPlanPer1000?: number;
  byRoute?: CuCount['byRoute'];
  /** Answers compared with the simulator's truth, and those older than their bound (target 0). */
  freshness: FreshnessReport;
  /** The fact floor's Data API + node CUs per 1,000 user requests (bench/workload/fact-floor.ts). */
  factFloorPlanPer1000?: number;
}
/**
 * The bounds answers are checked against (docs/caching.md, freshness by change), from the gateways' own
 * settings (their defaults and WORKLOAD_GATEWAY_ENV): a native balance may miss what no block shows for
 * the touch window, plus the Data API's indexing lag and the head in flight; a pinned head may trail the
 * one the request was sent at by the head in flight and one the feed has not delivered yet.
 * WORKLOAD_FRESHNESS_BOUND_BLOCKS sets another bound for the native balances (a tighter one than the
 * gateways declare shows the check finding answers older than it).
 */
const touches = loadConfig(gatewayEnv(world.sim, gatewaySettings)).touches;
const FRESHNESS_BOUNDS = {
  nativeBoundBlocks:
    k.freshnessBoundBlocks ?? (touches ? touches.window + touches.lagBlocks : 0) + 1,
  headBoundBlocks: 2,
  max: 400,
};
const rows: Row[] = [];
/** Each replica set's journeys, warm-up and windows, for the first-visit floor. */
const floorSets: FloorSegment[][] = [];
let seed = k.seed;

for (const n of k.replicas) {
  await world.control.reset();
  const set = await startGateways(n, world.sim, redis.url, gatewaySettings);
  const rss = new Map(set.gateways.map((g) => [g, g.rss()]));
  const sampler = setInterval(() => {
    for (const g of set.gateways) rss.set(g, Math.max(rss.get(g) ?? 0, g.rss()));
  }, 500);
  // Arrivals are journeys; the warm-up measures how many user requests a journey makes here.
  let steps = k.stepsPerJourney;
  const segments: FloorSegment[] = [];
  floorSets.push(segments);
  const at = (rate: number, seconds: number, row?: number) => {
    const journeys: Journey[] = [];
    segments.push({ journeys, ...(row === undefined ? {} : { row }) });
    return drive({
      url: set.url,
      docs,
      journeysPerSec: rate / steps,
      seconds,
      rand: seeded(seed++),
      draw: (rand) => {
        // The head it arrives at: the floors replay it in this time (the blocks this user saw).
        const j = { ...draw(rand), head: world.head() };
        journeys.push(j);
        return j;
      },
      journey: journeyOpts,
      head: () => world.head(),
    });
  };
  if (k.warmupSeconds > 0) {
    const w = await at(k.rates[0]!, k.warmupSeconds);
    if (w.journeys >= 50) steps = w.requests / w.journeys;
    console.log(
      `${n} replica(s): warm-up ${w.requests} requests (${f2(w.requests / Math.max(1, w.journeys))} a journey) in ${f1(w.seconds)} s, ${w.errors} errors`,
    );
  }
  for (const rate of k.rates) {
    for (const g of set.gateways) rss.set(g, g.rss());
    const s0 = await world.control.stats();
    const g0 = await snapshot(set.gateways, redis.url);
    const r = await at(rate, k.seconds, rows.length);
    const g1 = await snapshot(set.gateways, redis.url);
    const cu = countCu(diffStats(s0, await world.control.stats()));
    const t = tierRatios(g0, g1);
    // After the count: the truth is read from the same simulator, outside the window's CUs.
    const fresh = await checkFreshness(r.samples, simulatorTruth(world.sim), FRESHNESS_BOUNDS);
    const row: Row = {
      replicas: n,
      offered: rate,
      achieved: r.requests / r.seconds,
      perCore: r.requests / ((g1.cpuMs - g0.cpuMs) / 1000),
      p50: quantile(r.latencies, 0.5),
      p99: quantile(r.latencies, 0.99),
      errors: r.errors,
      errorCodes: r.errorCodes,
      cuPer1000: (1000 * cu.total) / r.requests,
      cuPerMinute: (60 * cu.total) / r.seconds,
      cuPer1000ByUpstream: Object.fromEntries(
        Object.entries(cu.byUpstream).map(([u, v]) => [u, Math.round((1000 * v) / r.requests)]),
      ),
      responseCache: t.responseCache,
      dataCache: t.dataCache,
      redisHit: t.redis,
      // Our two INFO reads per snapshot are not the gateways'.
      redisPerRequest: (g1.redisCommands - g0.redisCommands - 2) / r.requests,
      upstream429: t.upstream429,
      staleFlagged: r.stale,
      staleByCache: t.staleServedByCache,
      rssPeakMb: Math.max(...rss.values()),
      requests: r.requests,
      refusedCalls: t.refusedCalls,
      freshness: fresh,
    };
    rows.push(row);
    console.log(
      `${n} replica(s) @ ${rate} req/s offered: ${f1(row.achieved)} served, ${f1(row.perCore)} per gateway core, ` +
        `p50 ${f1(row.p50)} p99 ${f1(row.p99)} ms, errors ${row.errors} ${JSON.stringify(row.errorCodes)}, ` +
        `${f1(row.cuPer1000)} CU / 1000 requests ${JSON.stringify(row.cuPer1000ByUpstream)} (${Math.round(row.cuPerMinute)} CU/min), ` +
        `hit ratios: response ${f2(row.responseCache)} data ${f2(row.dataCache)} redis ${f2(row.redisHit)}, ` +
        `${f2(row.redisPerRequest)} Redis commands/request, 429s ${row.upstream429}, calls the governor held back ${row.refusedCalls}, stale ${row.staleFlagged} flagged / ${row.staleByCache} by the cache, RSS peak ${row.rssPeakMb} MB`,
    );
    console.log(
      `    freshness: ${fresh.checked} answers checked against the simulator's truth, ${fresh.violations} older than their declared bound (${fresh.flaggedStale} of them flagged stale)`,
    );
    for (const e of fresh.examples) console.log(`      ${e}`);
    for (const [key, msg] of Object.entries(r.errorSamples))
      console.log(`    error ${key}: ${msg}`);
    for (const [op, v] of Object.entries(r.byOperation))
      console.log(
        `    ${op}: ${v.latencies.length} requests, p50 ${f1(quantile(v.latencies, 0.5))} p99 ${f1(quantile(v.latencies, 0.99))} ms, ${v.errors} errors`,
      );
    printRoutes(cu.byRoute, r.requests);
    row.byRoute = cu.byRoute;
    if (row.p99 > k.p99LimitMs || row.errors > 0) break;
  }
  clearInterval(sampler);
  await set.stop();
}

// The baselines, on a fresh simulator that counts CUs but refuses none (the same seed, so the same world).
await world.stop();
world = await startWorld(k, {});
// The direct baseline: the same journeys (same draws), a frontend calling the upstreams itself.
const api = directApi(world.sim);
const rand = seeded(k.seed);
const s0 = await world.control.stats();
let directRequests = 0;
const queue = Array.from({ length: k.directJourneys }, () => {
  poissonGapMs(rand, 1);
  return draw(rand);
});
await Promise.all(
  Array.from({ length: 16 }, async () => {
    for (let j = queue.shift(); j; j = queue.shift()) {
      const steps = await runDirect(j, api, journeyOpts);
      directRequests += steps;
    }
  }),
);
const direct = countCu(diffStats(s0, await world.control.stats()));
const directPer1000 = (1000 * direct.total) / directRequests;
console.log(
  `direct: ${k.directJourneys} journeys, ${directRequests} user requests' worth, ${direct.calls} calls, ${direct.total} CU ${JSON.stringify(direct.byUpstream)}: ${f1(directPer1000)} CU / 1000 user requests`,
);
for (const row of rows)
  console.log(
    `  ${row.replicas} replica(s) @ ${row.offered}: ${f1(row.cuPer1000)} CU / 1000 = 1/${f1(directPer1000 / row.cuPer1000)} of direct`,
  );

// The first-visit floor of each window, on the same baseline simulator (bench/workload/floor.ts), in the
// window's own time: the baseline chain is first given every block the runs' users saw (same seed, same
// blocks), and each window's CUs are divided by its own replayed steps. The plan's upstreams (Data API
// and node) are compared apart from the Metrics API, which is another plan.
const lastHead = Math.max(
  0,
  ...floorSets.flat().flatMap((s) => s.journeys.map((j) => j.head ?? 0)),
);
if (lastHead > world.head()) await world.control.advance(lastHead - world.head(), false);
const floors = await firstVisitFloor(world, journeyOpts, floorSets);
const planCu = (byUpstream: Record<string, number>) =>
  (byUpstream['data-api'] ?? 0) + (byUpstream.node ?? 0);
for (const [i, row] of rows.entries()) {
  const floor = floors.get(i);
  if (!floor) continue;
  row.floorPer1000 = (1000 * floor.total) / floor.steps;
  row.floorPlanPer1000 = (1000 * planCu(floor.byUpstream)) / floor.steps;
  const ours = planCu(row.cuPer1000ByUpstream);
  console.log(
    `  ${row.replicas} replica(s) @ ${row.offered}: first-visit floor ${f1(row.floorPer1000)} CU / 1000 over its own ${floor.steps} steps ${JSON.stringify(floor.byUpstream)} ` +
      `(1/${f1(directPer1000 / row.floorPer1000)} of direct); Data API + node: the gateway ${f1(ours)}, the floor ${f1(row.floorPlanPer1000)}: ${f2(ours / row.floorPlanPer1000)}x the floor`,
  );
  printRoutes(floor.byRoute, floor.steps);
}
// The fact floor of each window (bench/workload/fact-floor.ts): the gateway's own facts, no freshness.
const factFloors = await factFloor(world, journeyOpts, docs, floorSets);
for (const [i, row] of rows.entries()) {
  const floor = factFloors.get(i);
  if (!floor || row.floorPlanPer1000 === undefined) continue;
  row.factFloorPlanPer1000 = (1000 * planCu(floor.byUpstream)) / floor.steps;
  const ours = planCu(row.cuPer1000ByUpstream);
  console.log(
    `  ${row.replicas} replica(s) @ ${row.offered}: fact floor (Data API + node) ${f1(row.factFloorPlanPer1000)} CU / 1000 over its own ${floor.steps} steps ${JSON.stringify(floor.byUpstream)}: ` +
      `${f2(row.factFloorPlanPer1000 / row.floorPlanPer1000)}x the exact floor; the gateway ${f1(ours)} = ${f2(ours / row.factFloorPlanPer1000)}x the fact floor`,
  );
  printRoutes(floor.byRoute, floor.steps);
}
// At 6,000 CU a minute, 300 user requests a second leave 6,000 / 18,000 CU a request.
const budget300 = (1000 * 6_000) / (300 * 60);
console.log(
  `300 req/s within 6,000 CU/min needs <= ${f1(budget300)} CU / 1000 requests; 1/20 of direct is ${f1(directPer1000 / 20)}`,
);

const peer = k.peer ? await peerComparison(k, world, redis.url, docs, draw) : undefined;

await world.stop();
await redis.stop();
mkdirSync('bench/results', { recursive: true });
writeFileSync(
  'bench/results/workload-latest.json',
  JSON.stringify(
    {
      knobs: k,
      rows,
      direct: { requests: directRequests, cu: direct, per1000: directPer1000 },
      peer,
    },
    null,
    2,
  ),
);
process.exit(0);

/** The routes that cost most, each as calls and CUs per 1,000 user requests of its window. */
function printRoutes(byRoute: CuCount['byRoute'], requests: number): void {
  for (const [route, v] of Object.entries(byRoute)
    .sort((x, y) => y[1].cu - x[1].cu)
    .slice(0, 14))
    console.log(
      `    upstream ${route}: ${v.calls} calls, ${v.cu} CU = ${f1((1000 * v.cu) / requests)} CU / 1000`,
    );
}
