import { Redis } from 'ioredis';
import { startHaproxy } from '../../test/support/replicas.js';
import { gatewayEnv, type SimUrls } from '../serve-command.js';
import type { WorkloadKnobs } from './knobs.js';
import { createPopulation, listValidatorIds, type Population } from './population.js';
import { type Proc, simControl, startGatewayProcess, startSimProcess } from './processes.js';

/** The simulator as its own process, its chain long enough for the block population, and its clock. */
export async function startWorld(k: WorkloadKnobs, simEnv: Record<string, string>) {
  const sim = await startSimProcess({ SIM_LATENCY_MS: String(k.simLatencyMs), ...simEnv });
  const control = simControl(sim.url);
  // The chain holds 480 blocks at start: append enough (world events off) that ranks 1..population exist.
  let head = await control.advance(1, false);
  const first = 70_000_000;
  let missing = k.population - (head - first + 1);
  while (missing > 0) {
    const n = Math.min(missing, 10_000);
    head = await control.advance(n, false);
    missing -= n;
  }
  const validators = await listValidatorIds(sim.dataApiUrl);
  const pop: Population = createPopulation('avalanche', validators, k.population);
  // One block every blockMs, with the rest of the world (ICM deliveries, stakes, prices) moving too.
  let ticking = Promise.resolve();
  const timer = setInterval(() => {
    ticking = ticking.then(
      async () => {
        head = await control.advance(1);
      },
      () => {},
    );
  }, k.blockMs);
  return {
    sim,
    control,
    pop,
    head: () => head,
    stop: async () => {
      clearInterval(timer);
      await ticking.catch(() => {});
      await sim.stop();
    },
  };
}

export type World = Awaited<ReturnType<typeof startWorld>>;

/** `n` gateways on one Redis (flushed first) behind HAProxy, as the replicas test deploys them. */
export async function startGateways(
  n: number,
  sim: SimUrls,
  redisUrl: string,
  extra: Record<string, string> = {},
) {
  const r = new Redis(redisUrl);
  await r.flushall();
  r.disconnect();
  const env = gatewayEnv(sim, { REDIS_URL: redisUrl, ...extra });
  const gateways: (Proc & { port: number })[] = [];
  for (let i = 0; i < n; i++) gateways.push(await startGatewayProcess(env));
  const lb = await startHaproxy(gateways);
  return {
    gateways,
    url: `${lb.url}/graphql`,
    stop: async () => {
      await lb.stop();
      await Promise.all(gateways.map((g) => g.stop()));
    },
  };
}
