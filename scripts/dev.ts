import { spawn } from 'node:child_process';
import { startSimulator } from '@avalanche-gateway/simulator';
import { devGatewayEnv, devSimulatorOptions } from './dev-wiring.js';

/**
 * `npm run dev`: the offline way to try everything. Starts the upstream simulator (a C-Chain block every
 * `SIM_BLOCK_INTERVAL_MS`, 2 s by default), then the gateway (as its own process, the entry `npm start`
 * runs, through tsx so no build step is needed) wired to the simulator (scripts/dev-wiring.ts).
 */
let options: ReturnType<typeof devSimulatorOptions>;
try {
  options = devSimulatorOptions(process.env);
} catch (e) {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(2);
}
const sim = await startSimulator(options).catch((e: unknown) => {
  const code = (e as { code?: unknown } | null)?.code;
  console.error(
    code === 'EADDRINUSE'
      ? `dev: SIM_PORT=${options.port} is already in use; set SIM_PORT to a free port`
      : `dev: the simulator cannot start: ${e instanceof Error ? e.message : String(e)}`,
  );
  process.exit(1);
});
console.log(
  `dev: simulator on ${sim.url} (data ${sim.dataApiUrl}, metrics ${sim.metricsApiUrl}, node ${sim.nodeUrl}); ${
    options.blockIntervalMs
      ? `a C-Chain block every ${options.blockIntervalMs} ms (SIM_BLOCK_INTERVAL_MS)`
      : 'no blocks until POST /_sim/advance (SIM_BLOCK_INTERVAL_MS=0)'
  }`,
);

const gateway = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
  stdio: 'inherit',
  env: devGatewayEnv(sim, process.env),
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
