import { spawn } from 'node:child_process';
import { startSimulator } from '../src/sim/index.js';

/**
 * `npm run dev`: the offline way to try everything. Starts the upstream simulator, then the gateway
 * (as its own process, the entry `npm start` runs, through tsx so no build step is needed) wired to the simulator's three base URLs.
 */
const simPort = Number(process.env.SIM_PORT ?? 4010);
const sim = await startSimulator({
  port: simPort,
  seed: process.env.SIM_SEED ?? 'avalanche',
  latencyMs: Number(process.env.SIM_LATENCY_MS ?? 0),
  adminEnabled: true,
});
console.log(
  `dev: simulator on ${sim.url} (data ${sim.dataApiUrl}, metrics ${sim.metricsApiUrl}, node ${sim.nodeUrl})`,
);

const gateway = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    DATA_API_URL: sim.dataApiUrl,
    METRICS_API_URL: sim.metricsApiUrl,
    NODE_RPC_URL: sim.nodeUrl,
    // Heads from the simulator's C-Chain websocket: subscriptions, head-keyed freshness.
    LIVE_WS: process.env.LIVE_WS ?? `43114=${sim.wsUrl}`,
    ADMIN_TOKEN: process.env.ADMIN_TOKEN ?? 'dev-admin-token',
  },
});

const stop = async () => {
  gateway.kill('SIGTERM');
  await sim.close();
  process.exit(0);
};
gateway.on('exit', (code) => {
  void sim.close().finally(() => process.exit(code ?? 0));
});
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
