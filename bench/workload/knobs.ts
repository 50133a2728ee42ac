/**
 * `npm run bench:workload`'s settings, from the environment (the bench reads process.env, as every bench
 * script does; the gateway's own settings stay in src/config.ts). Defaults are the issue's full run;
 * development runs shorten them (`WORKLOAD_WARMUP_SECONDS=20 WORKLOAD_SECONDS=30`).
 */
export interface WorkloadKnobs {
  /** Measured seconds per rate step. @default 60 */
  seconds: number;
  /** Warm-up before the first measured step of each set-up (not measured). @default 120 */
  warmupSeconds: number;
  /** Offered rates, user requests per second, tried in order until p99 > 100 ms or errors. @default 50,100,200,300,400 */
  rates: number[];
  /** Gateway replicas per set-up, each set-up behind HAProxy on one Redis. @default 1,3 */
  replicas: number[];
  /** The simulator's latency per call (ms), as a remote upstream has. @default 20 */
  simLatencyMs: number;
  /** Addresses, blocks and validators in each population. @default 10000 */
  population: number;
  /** Zipf exponent of the draws. @default 1.1 */
  zipfS: number;
  seed: number;
  /** One block every this many ms. @default 2000 */
  blockMs: number;
  /** Journeys replayed for the direct baseline. @default 600 */
  directJourneys: number;
  /** The peer comparison (Hive Gateway over Mesh, response cache on). @default on */
  peer: boolean;
  /** The peer comparison's rate (user requests/s) and seconds. @default 50, and `seconds` */
  peerRate: number;
  /** Expected user requests per journey (arrivals are drawn as journeys; the report gives the actual). @default 3.3 */
  stepsPerJourney: number;
  /** Stop raising the rate when p99 passes this (ms). @default 100 */
  p99LimitMs: number;
  /**
   * The plan the simulator charges in the gateway runs (SIM_CU_PER_MINUTE: per minute, per IP; 0: it
   * charges nothing), and the gateways' plan-wide governor (UPSTREAM_CU_PER_MINUTE; 0: off).
   * The baselines run on a second, unmetered simulator: their CUs are counted, never refused.
   * @default 6000 and 6000 (the unauthenticated plan)
   */
  simCuPerMinute: number;
  governorCuPerMinute: number;
  /** The gateways follow the simulator's C-Chain websocket (LIVE_WS), as production runs them. @default on (WORKLOAD_LIVE=0: off) */
  live: boolean;
  /** LIVE_ADDRESS_FRESHNESS for the gateways (WORKLOAD_ADDRESS_FRESHNESS). @default the gateway's own (touch) */
  addressFreshness?: 'head' | 'touch';
  /**
   * More settings for the gateways and for the measured simulator (WORKLOAD_GATEWAY_ENV and
   * WORKLOAD_SIM_ENV, JSON objects of strings): e.g. a longer touch window against invisible payouts,
   * to see the freshness check disagree. @default none
   */
  gatewayEnv: Record<string, string>;
  simEnv: Record<string, string>;
  /**
   * The freshness check's bound for native balances, in blocks (WORKLOAD_FRESHNESS_BOUND_BLOCKS).
   * @default the gateways' own: touch window + indexing lag + the head in flight
   */
  freshnessBoundBlocks?: number;
}

const num = (name: string, d: number) => {
  const v = process.env[name];
  if (v === undefined || v === '') return d;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a number >= 0`);
  return n;
};
const nums = (name: string, d: number[]) =>
  process.env[name] ? process.env[name]!.split(',').map((x) => Number(x.trim())) : d;

export function workloadKnobs(): WorkloadKnobs {
  const seconds = num('WORKLOAD_SECONDS', 60);
  return {
    seconds,
    warmupSeconds: num('WORKLOAD_WARMUP_SECONDS', 120),
    rates: nums('WORKLOAD_RATES', [50, 100, 200, 300, 400]),
    replicas: nums('WORKLOAD_REPLICAS', [1, 3]),
    simLatencyMs: num('WORKLOAD_SIM_LATENCY_MS', 20),
    population: num('WORKLOAD_POPULATION', 10_000),
    zipfS: num('WORKLOAD_ZIPF_S', 1.1),
    seed: num('WORKLOAD_SEED', 33),
    blockMs: num('WORKLOAD_BLOCK_MS', 2000),
    directJourneys: num('WORKLOAD_DIRECT_JOURNEYS', 600),
    peer: process.env.BENCH_PEER !== '0' && process.env.WORKLOAD_PEER !== '0',
    peerRate: num('WORKLOAD_PEER_RATE', 50),
    stepsPerJourney: num('WORKLOAD_STEPS_PER_JOURNEY', 3.3),
    p99LimitMs: num('WORKLOAD_P99_LIMIT_MS', 100),
    simCuPerMinute: num('WORKLOAD_SIM_CU_PER_MINUTE', 6_000),
    governorCuPerMinute: num('WORKLOAD_GOVERNOR_CU_PER_MINUTE', 6_000),
    live: process.env.WORKLOAD_LIVE !== '0',
    addressFreshness: freshness(process.env.WORKLOAD_ADDRESS_FRESHNESS),
    gatewayEnv: envObject('WORKLOAD_GATEWAY_ENV'),
    simEnv: envObject('WORKLOAD_SIM_ENV'),
    freshnessBoundBlocks: process.env.WORKLOAD_FRESHNESS_BOUND_BLOCKS
      ? num('WORKLOAD_FRESHNESS_BOUND_BLOCKS', 0)
      : undefined,
  };
}

function envObject(name: string): Record<string, string> {
  const v = process.env[name];
  if (v === undefined || v === '') return {};
  const o = JSON.parse(v) as unknown;
  if (
    typeof o !== 'object' ||
    o === null ||
    Array.isArray(o) ||
    Object.values(o).some((x) => typeof x !== 'string')
  )
    throw new Error(`${name} must be a JSON object of strings`);
  return o as Record<string, string>;
}

function freshness(v: string | undefined): 'head' | 'touch' | undefined {
  if (v === undefined || v === '') return undefined;
  if (v !== 'head' && v !== 'touch')
    throw new Error('WORKLOAD_ADDRESS_FRESHNESS must be head or touch');
  return v;
}
