import { type ChildProcess, spawn } from 'node:child_process';
import { freePort } from '../../test/support/redis.js';
import { rssMb, stopServer } from '../serve-command.js';

/**
 * The workload's processes, each on its own, as deployed: the simulator (`npm run sim`'s entry, with
 * the workload's settings), and gateways as `npm start` runs them (compiled `dist/server.js`, production
 * mode) on one shared Redis.
 */
export interface Proc {
  child: ChildProcess;
  url: string;
  rss(): number;
  stop(): Promise<void>;
}

async function waitFor(url: string, child: ChildProcess, what: string, log: () => string) {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`${what} exited (${child.exitCode}):\n${log()}`);
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not answer ${url} in 60 s:\n${log()}`);
}

function spawnLogged(args: string[], env: Record<string, string>) {
  let out = '';
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (d: Buffer) => {
    out = (out + String(d)).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { child, log: () => out };
}

/** The simulator as its own process. `env` adds SIM_* settings (latency, plan limits). */
export async function startSimProcess(
  env: Record<string, string> = {},
): Promise<Proc & { dataApiUrl: string; metricsApiUrl: string; nodeUrl: string }> {
  const port = await freePort();
  const { child, log } = spawnLogged(['--import', 'tsx', 'packages/simulator/src/main.ts'], {
    SIM_PORT: String(port),
    ...env,
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/_sim/health`, child, 'simulator', log);
  return {
    child,
    url,
    dataApiUrl: `${url}/data-api`,
    metricsApiUrl: `${url}/metrics-api`,
    nodeUrl: `${url}/node`,
    rss: () => rssMb(child.pid),
    stop: () => stopServer(child),
  };
}

/** A gateway as `npm start` runs it (built first by the caller). */
export async function startGatewayProcess(
  env: Record<string, string>,
): Promise<Proc & { port: number }> {
  const port = await freePort();
  const { child, log } = spawnLogged(['--enable-source-maps', 'dist/server.js'], {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(port),
    ...env,
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/health`, child, 'gateway', log);
  return { child, url, port, rss: () => rssMb(child.pid), stop: () => stopServer(child) };
}

/** The simulator's control surface. */
export const simControl = (simUrl: string) => ({
  advance: async (blocks: number, evolve = true): Promise<number> => {
    const r = await fetch(`${simUrl}/_sim/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chainId: '43114', blocks, evolve }),
    });
    if (!r.ok) throw new Error(`advance: ${r.status} ${await r.text()}`);
    return Number(((await r.json()) as { head: { number: number } }).head.number);
  },
  stats: async (): Promise<SimStatsBody> =>
    (await fetch(`${simUrl}/_sim/stats`)).json() as Promise<SimStatsBody>,
  reset: async () => void (await fetch(`${simUrl}/_sim/reset`, { method: 'POST' })),
});

export interface SimStatsBody {
  total: number;
  byRoute: Record<string, number>;
  byRpcMethod: Record<string, number>;
  /** What each route charged, by the simulator's own price table (its ledger). */
  cuByRoute: Record<string, number>;
}
