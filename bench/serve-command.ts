import { type ChildProcess, execFileSync, execSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { RunningSimulator } from '@avalanche-gateway/simulator';

/** A simulator's three base URLs: in this process (`startSimulator`) or its own (`npm run sim`). */
export type SimUrls = Pick<RunningSimulator, 'dataApiUrl' | 'metricsApiUrl' | 'nodeUrl'>;

/**
 * How the bench scripts start a server under test (`bench/serve.mjs`): compiled, under plain `node`, as
 * `npm start` runs the gateway (the build runs first); with BENCH_FROM=src, the TypeScript sources
 * through tsx. tsx's loader is never in a measured compiled server: it adds about 65 MB of RSS.
 */
export function serveArgs(): string[] {
  if (process.env.BENCH_FROM === 'src') return ['--import', 'tsx', 'bench/serve.mjs'];
  return ['bench/serve.mjs'];
}

let built = false;
/** `npm run build` once per bench process, unless the sources are served or a parent bench built it. */
export function buildGateway(): void {
  if (built || process.env.BENCH_FROM === 'src' || process.env.BENCH_BUILT === '1') return;
  execSync('npm run -s build', { stdio: 'inherit' });
  built = true;
}

/**
 * A gateway's environment against the simulator, as every bench script runs it: production mode (as
 * the Dockerfile sets it), no per-client budget (one client sends everything here: its budget would
 * be the bottleneck), a fixed cursor secret. `extra` adds or overrides.
 */
export function gatewayEnv(
  sim: SimUrls,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    DATA_API_URL: sim.dataApiUrl,
    METRICS_API_URL: sim.metricsApiUrl,
    NODE_RPC_URL: sim.nodeUrl,
    CLIENT_CU_PER_MINUTE: '0',
    // The simulator charges nothing here; a run that measures the plan turns the governor on in `extra`.
    UPSTREAM_CU_PER_MINUTE: '0',
    NODE_ENV: process.env.NODE_ENV ?? 'production',
    CURSOR_SECRET: 'bench-cursor-secret-of-at-least-32-characters',
    ...extra,
  };
}

/**
 * The gateway of the per-query scripts: response cache off, and when `cold` a 1 MiB in-process cache,
 * so that cycling over 300 blocks misses every time (two upstream calls a query).
 */
export function perQueryEnv(sim: SimUrls, cold: boolean): Record<string, string> {
  return gatewayEnv(sim, {
    RESPONSE_CACHE_MAX_TTL_MS: '0',
    ...(cold ? { MEMORY_CACHE_MAX_BYTES: String(1024 * 1024) } : {}),
  });
}

/** NODE_FLAGS of the environment, split (flags for the server's process). */
export function nodeFlags(): string[] {
  return (process.env.NODE_FLAGS ?? '').split(' ').filter(Boolean);
}

/**
 * Starts `bench/serve.mjs` as `kind` (BENCH_SERVER: gateway, gateway-redis-only, relay, bare) on a
 * free port with `env` over this process's, `flags` before the script (`--cpu-prof`, …), and waits
 * for it to listen.
 */
export async function startBenchServer(
  kind: string,
  env: Record<string, string>,
  flags: string[] = [],
): Promise<{ child: ChildProcess; url: string }> {
  // BENCH_HEAP_MB: our servers with that V8 heap limit (as docker-compose.yml runs the gateway: 384);
  // unset, with Node's default, as `npm start` runs it. The bare ceiling and the relay never get one.
  const heap =
    process.env.BENCH_HEAP_MB && kind.startsWith('gateway')
      ? [`--max-old-space-size=${process.env.BENCH_HEAP_MB}`]
      : [];
  const child = spawn(process.execPath, [...heap, ...flags, ...serveArgs()], {
    env: { ...process.env, ...env, BENCH_SERVER: kind, PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let buf = '';
    child.stdout?.on('data', (d: Buffer) => {
      buf += d.toString();
      const m = /READY (\d+)/.exec(buf);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`${kind} server exited with ${code}`)));
  });
  return { child, url: `http://127.0.0.1:${port}/graphql` };
}

/** The simulator's head block number on `chainId` (the bench's blocks are counted down from it). */
export async function headOf(sim: SimUrls, chainId: string): Promise<number> {
  const r = await fetch(`${sim.dataApiUrl}/v1/chains/${chainId}/blocks?pageSize=1`);
  return Number(((await r.json()) as { blocks: { blockNumber: string }[] }).blocks[0]!.blockNumber);
}

/** A process's resident set in MB (Linux /proc), 0 when unreadable (the process has gone). */
export function rssMb(pid: number | undefined): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : 0;
  } catch {
    return 0;
  }
}

/**
 * Samples a process's RSS every `everyMs` from now on: `before` is its RSS now; `stop()` ends the
 * sampling and returns the highest RSS seen (MB). Every script that reports a peak samples it this way.
 */
export function watchRss(
  pid: number | undefined,
  everyMs: number,
): { before: number; stop(): number } {
  const before = rssMb(pid);
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMb(pid));
  }, everyMs);
  return {
    before,
    stop: () => {
      clearInterval(timer);
      return peak;
    },
  };
}

/** Ends a server under test (SIGTERM) and resolves once it has exited. */
export function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  return exited;
}

/**
 * The per-query scripts' knobs, from the environment over each script's defaults: MODE (cold or warm),
 * WARMUP and TOTAL queries, CLIENTS.
 */
export function perQueryKnobs(defaults: { mode: 'cold' | 'warm'; warmup: number; total: number }): {
  mode: 'cold' | 'warm';
  cold: boolean;
  warmup: number;
  total: number;
  clients: number;
} {
  const mode = process.env.MODE ?? defaults.mode;
  if (mode !== 'cold' && mode !== 'warm') throw new Error('MODE is cold or warm');
  return {
    mode,
    cold: mode === 'cold',
    warmup: Number(process.env.WARMUP ?? defaults.warmup),
    total: Number(process.env.TOTAL ?? defaults.total),
    clients: Number(process.env.CLIENTS ?? 16),
  };
}

/** A process's CPU time so far, ms (user + system from /proc/<pid>/stat, in clock ticks of 10 ms). Linux. */
export function cpuTimeMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Moves a process (all its threads) to `cpus` (a `taskset` list: `1`, `0-2`). Linux. */
export function pinToCpus(pid: number, cpus: string): void {
  execFileSync('taskset', ['-a', '-pc', cpus, String(pid)], { stdio: 'ignore' });
}
