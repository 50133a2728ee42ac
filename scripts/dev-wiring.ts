import type { RunningSimulator, SimulatorOptions } from '@avalanche-gateway/simulator';

/**
 * What `npm run dev` wires together, as functions a test can run too (test/e2e/graphiql.test.ts opens
 * GraphiQL on exactly this): the simulator's options from the environment, and the gateway's
 * environment pointing at that simulator.
 */
type Env = Record<string, string | undefined>;

/** `npm run dev` makes a C-Chain block every 2 s unless `SIM_BLOCK_INTERVAL_MS` says otherwise (0: off). */
export const DEV_BLOCK_INTERVAL_MS = 2_000;

function nonNegative(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  const n = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isFinite(n) || n < 0)
    throw new Error(`dev: ${name} must be a non-negative number (got ${JSON.stringify(raw)})`);
  return n;
}

/** The simulator `npm run dev` starts: seed `avalanche`, the admin API on, a block every 2 s. */
export function devSimulatorOptions(env: Env): SimulatorOptions {
  return {
    port: nonNegative(env, 'SIM_PORT', 4010),
    seed: env.SIM_SEED ?? 'avalanche',
    latencyMs: nonNegative(env, 'SIM_LATENCY_MS', 0),
    adminEnabled: true,
    blockIntervalMs: nonNegative(env, 'SIM_BLOCK_INTERVAL_MS', DEV_BLOCK_INTERVAL_MS),
  };
}

/** The gateway's environment: the caller's, with the simulator's three upstreams and its C-Chain heads. */
export function devGatewayEnv(sim: RunningSimulator, env: Env): Env {
  return {
    ...env,
    DATA_API_URL: sim.dataApiUrl,
    METRICS_API_URL: sim.metricsApiUrl,
    NODE_RPC_URL: sim.nodeUrl,
    // Heads from the simulator's C-Chain websocket: subscriptions, head-keyed freshness.
    LIVE_WS: env.LIVE_WS ?? `43114=${sim.wsUrl}`,
    ADMIN_TOKEN: env.ADMIN_TOKEN ?? 'dev-admin-token',
  };
}
