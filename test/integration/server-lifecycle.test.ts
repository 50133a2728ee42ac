import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { type AddressInfo, createServer } from 'node:net';
import { Writable } from 'node:stream';
import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { HIGH_GROWTH_FROM_MB } from '../../src/heap-limit.js';
import { startHttpServer } from '../../src/http/server.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { useSimulator } from '../support/gateway.js';
import { allocateRedisDb } from '../support/redis-db.js';
import { flushRedisDb } from '../support/sim.js';

/**
 * Graceful shutdown drains in-flight requests, bounded by SHUTDOWN_GRACE_MS; the process survives
 * unhandled rejections and uncaught exceptions, logging and counting them. The last test runs the real
 * entry (src/server.ts) in a child process and sends it SIGTERM.
 */
const redisUrl = await allocateRedisDb();
const BLOCKS_ROUTE = 'data-api GET /v1/chains/:chainId/blocks';
const QUERY = `{ chain(id: "43114") { blocks(first: 1) { edges { node { number } } } } }`;
let sim: RunningSimulator;

const { gateway } = useSimulator({}, (s) => {
  sim = s;
});
beforeEach(async () => {
  await flushRedisDb(redisUrl);
});

/** Resolves once `check` is true (polled); fails the test with `what` if it never is. */
async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  limitMs = 15_000,
): Promise<void> {
  await vi.waitFor(
    async () => {
      if (!(await check())) throw new Error(`never happened: ${what}`);
    },
    { timeout: limitMs, interval: 20 },
  );
}

/** A pino destination that keeps every line, parsed. */
function captureLogs() {
  const lines: Record<string, any>[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      done();
    },
  });
  return { lines, logger: createLogger({ level: 'info', destination }) };
}

const post = (port: number, headers: Record<string, string> = {}) =>
  fetch(`http://127.0.0.1:${port}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query: QUERY }),
  });

describe('graceful shutdown (the server factory src/server.ts uses)', () => {
  it('stops accepting, lets the slow request in flight finish, then closes the gateway', async () => {
    const gw = gateway({ redisUrl });
    await gw.ready();
    const { logger, lines } = captureLogs();
    let inFlightAtClose: number | undefined;
    const http = await startHttpServer({
      gateway: {
        yoga: gw.yoga,
        close: async () => {
          inFlightAtClose = http.inFlight();
          await gw.close();
        },
      },
      port: 0,
      host: '127.0.0.1',
      graceMs: 20_000,
      logger,
    });
    sim.addFault({ route: BLOCKS_ROUTE, latencyMs: 1_500, count: 1 });
    const slow = post(http.port).then(async (res) => ({
      status: res.status,
      body: (await res.json()) as any,
    }));
    // The gateway is waiting on the (slowed) upstream: the request is in flight.
    await until(
      'the upstream call is made',
      () => sim.stats().total === 1 && http.inFlight() === 1,
    );

    const stopped = http.shutdown('test');
    // No new connections while draining.
    await until('new connections are refused', () =>
      post(http.port).then(
        () => false,
        () => true,
      ),
    );
    expect(http.inFlight()).toBe(1);

    const answer = await slow;
    expect(answer.status).toBe(200);
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data.chain.blocks.edges).toHaveLength(1);
    expect(await stopped).toEqual({ drained: true });
    // The caches (Redis) closed only once nothing was in flight.
    expect(inFlightAtClose).toBe(0);
    expect(lines.map((l) => l.msg)).toEqual(
      expect.arrayContaining([
        'shutting down: no new connections, draining in-flight requests',
        'closed',
      ]),
    );
    // Shutting down twice is the same shutdown.
    expect(await http.shutdown('again')).toEqual({ drained: true });
  });

  it('gives up on a request that outlives the grace: its connection is closed and shutdown still completes', async () => {
    const gw = gateway({ redisUrl });
    const { logger, lines } = captureLogs();
    const http = await startHttpServer({
      gateway: gw,
      port: 0,
      host: '127.0.0.1',
      graceMs: 200,
      logger,
    });
    sim.addFault({ route: BLOCKS_ROUTE, latencyMs: 10_000, count: 1 });
    const slow = post(http.port).then(
      (res) => `answered ${res.status}`,
      () => 'connection closed',
    );
    await until('the upstream call is made', () => sim.stats().total === 1);
    expect(await http.shutdown('test')).toEqual({ drained: false });
    expect(await slow).toBe('connection closed');
    expect(lines.find((l) => l.msg.startsWith('shutdown grace ran out'))).toMatchObject({
      level: 'warn',
      abandoned: 1,
      graceMs: 200,
    });
  });
});

describe('the real entry, src/server.ts, in a child process', () => {
  /** The entry's environment: this simulator, any free port, `extra` over it, nothing inherited but PATH. */
  const entryEnv = (extra: Record<string, string>) => ({
    PATH: process.env.PATH,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_API_URL: sim.dataApiUrl,
    METRICS_API_URL: sim.metricsApiUrl,
    NODE_RPC_URL: sim.nodeUrl,
    LOG_LEVEL: 'info',
    ...extra,
  });
  let child: ChildProcess | undefined;
  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });

  it('survives a rejection and an exception (logged, counted), then drains a slow request on SIGTERM and exits 0', async () => {
    // The entry as `npm start` runs it, plus a simulated unhandled rejection and uncaught exception from
    // elsewhere in the same process once it listens.
    const script = [
      "await import('./src/server.ts');",
      "setTimeout(() => { Promise.reject(new Error('simulated rejection')); }, 10);",
      "setTimeout(() => { throw new Error('simulated exception'); }, 20);",
    ].join('\n');
    child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], {
      cwd: process.cwd(),
      env: entryEnv({ REDIS_URL: redisUrl, SHUTDOWN_GRACE_MS: '20000' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines: Record<string, any>[] = [];
    let stderr = '';
    let buffered = '';
    child.stdout!.on('data', (d) => {
      buffered += String(d);
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? '';
      for (const p of parts.filter(Boolean)) lines.push(JSON.parse(p));
    });
    child.stderr!.on('data', (d) => (stderr += String(d)));
    const exited = new Promise<number | null>((resolve) =>
      child!.once('exit', (code) => resolve(code)),
    );

    await until(
      'the gateway listens',
      () => lines.some((l) => l.msg === 'gateway listening'),
      30_000,
    );
    const listening = lines.find((l) => l.msg === 'gateway listening')!;
    const port = listening.port as number;
    const base = `http://127.0.0.1:${port}`;
    // HEAP_GROWTH_PERCENT's default is applied where the heap limit is 2 GB or more (Node's default
    // on a machine of 8 GB or more; read from a plain process of the same binary and environment), and
    // the entry says which.
    const limit = Number(
      execFileSync(
        process.execPath,
        ['-p', "require('node:v8').getHeapStatistics().heap_size_limit"],
        {
          env: entryEnv({}),
          encoding: 'utf8',
        },
      ),
    );
    expect(listening.heapGrowth).toBe(limit >= HIGH_GROWTH_FROM_MB * 1_048_576 ? '100%' : 'v8');

    // Both faults were logged at error level, with their stacks, and counted; the process still answers.
    await until(
      'both process errors are logged',
      () =>
        lines.filter((l) => l.kind === 'unhandledRejection' || l.kind === 'uncaughtException')
          .length === 2,
    );
    expect(lines.find((l) => l.kind === 'unhandledRejection')).toMatchObject({
      level: 'error',
      err: { message: 'simulated rejection' },
    });
    expect(lines.find((l) => l.kind === 'uncaughtException')).toMatchObject({
      level: 'error',
      err: { message: 'simulated exception' },
    });
    expect((await fetch(`${base}/live`)).status).toBe(200);
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toContain('gateway_process_errors_total{kind="unhandledRejection"} 1');
    expect(metrics).toContain('gateway_process_errors_total{kind="uncaughtException"} 1');
    expect(metrics).toContain('process_resident_memory_bytes');

    // A slow request in flight, then SIGTERM: it completes, new connections are refused, the process exits 0.
    sim.reset();
    sim.addFault({ route: BLOCKS_ROUTE, latencyMs: 1_500, count: 1 });
    const slow = post(port, { 'x-request-id': 'drain-test-1' }).then(async (res) => ({
      status: res.status,
      id: res.headers.get('x-request-id'),
      body: (await res.json()) as any,
    }));
    await until('the upstream call is made', () => sim.stats().total === 1);
    child.kill('SIGTERM');
    await until('shutdown begins', () => lines.some((l) => l.msg?.startsWith('shutting down')));
    await until('new connections are refused', () =>
      fetch(`${base}/live`).then(
        () => false,
        () => true,
      ),
    );

    const answer = await slow;
    expect(answer).toMatchObject({ status: 200, id: 'drain-test-1' });
    expect(answer.body.data.chain.blocks.edges).toHaveLength(1);
    expect(await exited, stderr).toBe(0);
    expect(
      lines.find((l) => l.msg === 'shutting down: no new connections, draining in-flight requests'),
    ).toMatchObject({ reason: 'SIGTERM', inFlight: 1 });
    expect(lines.find((l) => l.msg === 'closed')).toMatchObject({ drained: true });
    // The slow request's own log line, under the id the caller sent.
    expect(lines.find((l) => l.msg === 'request' && l.requestId === 'drain-test-1')).toMatchObject({
      level: 'info',
      status: 200,
      path: '/graphql',
      upstreamCalls: 1,
    });
  }, 60_000);

  it('refuses to start with a cache that does not fit its heap, naming the setting (exit 2, nothing listens)', async () => {
    const refused = spawn(
      process.execPath,
      ['--max-old-space-size=384', '--import', 'tsx', 'src/server.ts'],
      {
        cwd: process.cwd(),
        env: entryEnv({ MEMORY_CACHE_MAX_BYTES: String(1024 * 1024 * 1024) }),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    refused.stdout!.on('data', (d) => (out += String(d)));
    refused.stderr!.on('data', (d) => (out += String(d)));
    const code = await new Promise<number | null>((resolve) =>
      refused.once('exit', (c) => resolve(c)),
    );
    expect(code, out).toBe(2);
    expect(out).toContain('MEMORY_CACHE_MAX_BYTES');
    expect(out).toContain('NODE_OPTIONS=--max-old-space-size=1216');
    expect(out).not.toContain('gateway listening');
  }, 60_000);
  /** Runs `args` with `env` until it exits: its code, all it printed, and how long it took. */
  const runToExit = async (args: string[], env: Record<string, string | undefined>) => {
    const started = performance.now();
    const p = spawn(process.execPath, args, {
      cwd: process.cwd(),
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    p.stdout!.on('data', (d) => (out += String(d)));
    p.stderr!.on('data', (d) => (out += String(d)));
    const killer = setTimeout(() => p.kill('SIGKILL'), 30_000);
    const code = await new Promise<number | null>((resolve) => p.once('exit', (c) => resolve(c)));
    clearTimeout(killer);
    return { code, out, ms: performance.now() - started };
  };

  it('with its port taken, the gateway exits 1 naming PORT instead of running with no listener (issue 44)', async () => {
    const holder = createServer();
    await new Promise<void>((r) => holder.listen(0, '127.0.0.1', r));
    const port = (holder.address() as AddressInfo).port;
    try {
      const { code, out } = await runToExit(
        ['--import', 'tsx', 'src/server.ts'],
        entryEnv({ PORT: String(port) }),
      );
      // Before: an uncaughtException logged, and the process went on following heads (killed at 30 s).
      expect(code, out).toBe(1);
      expect(out).toContain(`PORT=${port}`);
      expect(out).toContain('already in use');
      expect(out).not.toContain('gateway listening');
    } finally {
      holder.close();
    }
  }, 60_000);

  it('with its port taken, the simulator exits 1 naming SIM_PORT, with no stack trace (issue 44)', async () => {
    const holder = createServer();
    await new Promise<void>((r) => holder.listen(0, '127.0.0.1', r));
    const port = (holder.address() as AddressInfo).port;
    try {
      const { code, out } = await runToExit(['--import', 'tsx', 'packages/simulator/src/main.ts'], {
        PATH: process.env.PATH,
        SIM_PORT: String(port),
      });
      expect(code, out).toBe(1);
      expect(out).toContain(`simulator: SIM_PORT=${port}`);
      expect(out).not.toMatch(/\n\s+at /);
    } finally {
      holder.close();
    }
  }, 60_000);
});
