import {
  DEFAULT_SIM_PORT,
  SIM_DISAGREEMENTS,
  type SimDisagreement,
  startSimulator,
} from './index.js';

/** `npm run sim`: the upstream simulator on SIM_PORT (default 4010). */
const env = process.env;
const flag = (v: string | undefined) => v === '1' || v?.toLowerCase() === 'true';
function num(name: string, fallback: number): number {
  const raw = env[name];
  const n = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isFinite(n) || n < 0) {
    console.error(`simulator: ${name} must be a non-negative number (got ${JSON.stringify(raw)})`);
    process.exit(2);
  }
  return n;
}

const keys = (name: string) =>
  (env[name] ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);

/** SIM_DISAGREE's names, each checked: a misspelt one stops the simulator rather than being ignored. */
function disagreements(names: string[]): SimDisagreement[] {
  const known: readonly string[] = SIM_DISAGREEMENTS;
  const unknown = names.filter((n) => !known.includes(n));
  if (unknown.length > 0) {
    console.error(
      `simulator: SIM_DISAGREE: unknown ${unknown.join(', ')} (known: ${known.join(', ')})`,
    );
    process.exit(1);
  }
  return names as SimDisagreement[];
}

/** SIM_INDEX_LAG_BLOCKS: a whole number of blocks. */
function lagBlocks(): number {
  const n = num('SIM_INDEX_LAG_BLOCKS', 0);
  if (!Number.isInteger(n)) {
    console.error(`simulator: SIM_INDEX_LAG_BLOCKS must be a whole number of blocks (got ${n})`);
    process.exit(2);
  }
  return n;
}

const port = num('SIM_PORT', DEFAULT_SIM_PORT);
const host = env.SIM_HOST ?? '127.0.0.1';
const sim = await startSimulator({
  port,
  host,
  seed: env.SIM_SEED ?? 'avalanche',
  latencyMs: num('SIM_LATENCY_MS', 0),
  // Off unless set: the world moves only on POST /_sim/advance (`npm run dev` sets 2000).
  blockIntervalMs: num('SIM_BLOCK_INTERVAL_MS', 0),
  disagree: disagreements(keys('SIM_DISAGREE')),
  // The Data API's indexing lag behind the node, in blocks (0: none).
  indexLagBlocks: lagBlocks(),
  adminEnabled: flag(env.SIM_ADMIN_ENABLED),
  vary: env.SIM_VARY || undefined,
  specDir: env.SPEC_DIR || env.SIM_SPEC_DIR || undefined,
  proofWindow: {
    pruning: flag(env.SIM_EVM_PRUNING),
    historicalProofQueryWindow: num('SIM_HISTORICAL_PROOF_QUERY_WINDOW', 43_200),
  },
  apiKeys: { revoked: keys('SIM_REVOKED_KEYS'), unprivileged: keys('SIM_UNPRIVILEGED_KEYS') },
  // A plan in compute units, like the real Data API's (e.g. 6000 and 1200000: the unauthenticated one).
  computeUnits: env.SIM_CU_PER_MINUTE
    ? {
        perMinute: num('SIM_CU_PER_MINUTE', 6_000),
        perDay: env.SIM_CU_PER_DAY ? num('SIM_CU_PER_DAY', 1_200_000) : undefined,
      }
    : undefined,
}).catch((e: unknown) => {
  const code = (e as { code?: unknown } | null)?.code;
  const why =
    code === 'EADDRINUSE'
      ? `SIM_PORT=${port} on SIM_HOST=${host} is already in use; set SIM_PORT to a free port`
      : `cannot listen on SIM_PORT=${port}, SIM_HOST=${host}: ${e instanceof Error ? e.message : String(e)}`;
  console.error(`simulator: ${why}`);
  process.exit(1);
});
console.log(
  `simulator (seed ${sim.world.seed}${sim.vary ? `, spec variation ${sim.vary}` : ''}) listening on ${sim.url}`,
);
console.log(`  DATA_API_URL=${sim.dataApiUrl}`);
console.log(`  METRICS_API_URL=${sim.metricsApiUrl}`);
console.log(`  NODE_RPC_URL=${sim.nodeUrl}`);
console.log(`  LIVE_WS=43114=${sim.wsUrl}`);
const interval = num('SIM_BLOCK_INTERVAL_MS', 0);
console.log(
  interval > 0
    ? `  a C-Chain block every ${interval} ms (SIM_BLOCK_INTERVAL_MS)`
    : '  no new blocks until POST /_sim/advance (or set SIM_BLOCK_INTERVAL_MS)',
);
if (sim.indexed !== sim.world)
  console.log(
    `  the Data API indexes ${lagBlocks()} blocks behind the node (SIM_INDEX_LAG_BLOCKS)`,
  );
console.log(
  `  control: ${sim.url}/_sim/stats · /_sim/charges · /_sim/reset · /_sim/faults · /_sim/advance · /_sim/fixtures · /_sim/ws (POST /_sim/ws/drop)`,
);

let closing = false;
const stop = (signal: string) => {
  if (closing) return;
  closing = true;
  console.log(`simulator: ${signal}, closing`);
  sim.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
