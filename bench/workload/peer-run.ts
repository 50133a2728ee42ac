import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { peerAvailable, preparePeer, startPeer } from '../peer.js';
import { stopServer } from '../serve-command.js';
import { countCu, diffStats } from './cu.js';
import { type Documents, drive, quantile } from './driver.js';
import type { Journey } from './journeys.js';
import { runJourney } from './journeys.js';
import type { WorkloadKnobs } from './knobs.js';
import { peerDocuments, runPeerJourney } from './peer-journeys.js';
import { startGateways, type World } from './setup.js';
import { type Rand, seeded } from './zipf.js';

/**
 * The peer comparison: the same journeys (same seeds, rate and duration), only the Data API views the
 * peer can serve, asked of one gateway (fresh caches) and of Hive Gateway over Mesh's composition with
 * its response cache on; CUs counted at the simulator over the measured window, after the same warm-up.
 * The peer's cache keeps a whole answer 2 s (the block time: head lists no staler than ours) and the
 * answers about final things (a block, its transactions, a transaction) a day, as a careful user of it
 * would configure; with its default (no expiry) it would keep serving the first head it saw.
 */
const PEER_CACHE_CONFIG = `export const gatewayConfig = {
  responseCaching: {
    session: () => null,
    ttl: 2000,
    ttlPerSchemaCoordinate: {
      'Query.getBlock': 86400000,
      'Query.getTransactionsForBlock': 86400000,
      'Query.getTransaction': 86400000,
    },
  },
};
`;

export async function peerComparison(
  k: WorkloadKnobs,
  world: World,
  redisUrl: string,
  docs: Documents,
  draw: (rand: Rand) => Journey,
) {
  if (!peerAvailable()) {
    console.log('peer: the Data API spec is not in ../shared/upstream; skipped');
    return undefined;
  }
  const opts = { head: world.head, pop: world.pop, views: 'peer' as const };
  const measure = async (
    url: string,
    d: Documents,
    run: (j: Journey, ask: Parameters<typeof runJourney>[1]) => Promise<void>,
  ) => {
    const common = {
      url,
      docs: d,
      journeysPerSec: k.peerRate / k.stepsPerJourney,
      draw,
      journey: opts,
      run,
    };
    if (k.warmupSeconds > 0)
      await drive({ ...common, seconds: k.warmupSeconds, rand: seeded(k.seed + 1000) });
    const s0 = await world.control.stats();
    const r = await drive({ ...common, seconds: k.seconds, rand: seeded(k.seed + 2000) });
    const cu = countCu(diffStats(s0, await world.control.stats()));
    return {
      journeys: r.journeys,
      requests: r.requests,
      errors: r.errors,
      errorCodes: r.errorCodes,
      p50: quantile(r.latencies, 0.5),
      p99: quantile(r.latencies, 0.99),
      cu: cu.total,
      calls: cu.calls,
      cuPer1000Journeys: (1000 * cu.total) / r.journeys,
      byRoute: cu.byRoute,
    };
  };

  // Neither side is held to a plan here (a bench gateway has no client budget and no governor unless
  // asked): the comparison is what each spends on the same visits.
  const set = await startGateways(1, world.sim, redisUrl);
  const ours = await measure(set.url, docs, (j, ask) => runJourney(j, ask, opts));
  await set.stop();

  const work = preparePeer(world.sim.dataApiUrl);
  writeFileSync(join(work, 'gateway.config.mjs'), PEER_CACHE_CONFIG);
  const peer = await startPeer(work, true);
  const pd = peerDocuments();
  const theirs = await measure(peer.url, pd, (j, ask) => runPeerJourney(j, ask, opts));
  await stopServer(peer.child);

  const f1 = (x: number) => x.toFixed(1);
  for (const [name, m] of [
    ['ours', ours],
    ['peer', theirs],
  ] as const)
    console.log(
      `peer comparison, ${name}: ${m.journeys} journeys, ${m.requests} requests, ${m.errors} errors ${JSON.stringify(m.errorCodes)}, ` +
        `p50 ${f1(m.p50)} p99 ${f1(m.p99)} ms, ${m.calls} upstream calls, ${m.cu} CU = ${f1(m.cuPer1000Journeys)} CU / 1000 journeys`,
    );
  console.log(
    `peer / ours, CUs per journey: ${(theirs.cuPer1000Journeys / ours.cuPer1000Journeys).toFixed(2)}×`,
  );
  return { ours, peer: theirs };
}
