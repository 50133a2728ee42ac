import type { RunningSimulator } from '@avalanche-gateway/simulator';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { type ExecutionResult, print } from 'graphql';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { type Config, loadConfig } from '../../src/config.js';
import { createGateway, type Gateway, type GatewayDeps } from '../../src/gateway.js';
import { allocateRedisDb } from './redis-db.js';
import { startTestSimulator } from './sim.js';

/** Minimal view of a running simulator that the gateway helpers need. */
export interface SimUrls {
  dataApiUrl: string;
  metricsApiUrl: string;
  nodeUrl: string;
}

export interface TestGateway extends Gateway {
  config: Config;
  /** Sends a typed operation through `yoga.fetch` in-process (no port). */
  exec<R, V>(
    doc: TypedDocumentNode<R, V>,
    variables?: V,
    headers?: Record<string, string>,
  ): Promise<ExecutionResult<R> & { extensions?: Record<string, unknown> }>;
  /** Sends raw GraphQL text. */
  query(
    query: string,
    variables?: Record<string, unknown>,
    headers?: Record<string, string>,
  ): Promise<ExecutionResult<Record<string, any>>>;
}

/** The settings of a production gateway under test: NODE_ENV=production and a cursor secret of its own. */
export const PRODUCTION_ENV = {
  NODE_ENV: 'production',
  CURSOR_SECRET: 'test-cursor-secret-0123456789',
} as const;

/**
 * A production gateway that also follows the simulator's C-Chain websocket and serves the webhook route,
 * as the hostile tables and the fuzz want it: every surface the process serves.
 */
export const productionWithLive = (sim: RunningSimulator) => ({
  ...PRODUCTION_ENV,
  LIVE_WS: `43114=${sim.wsUrl}`,
  WEBHOOK_URL: 'http://127.0.0.1:9/webhooks/data-api',
});

export function createTestGateway(
  sim: SimUrls,
  o: { redisUrl?: string; env?: Record<string, string> } & GatewayDeps = {},
): TestGateway {
  const config = loadConfig({
    DATA_API_URL: sim.dataApiUrl,
    METRICS_API_URL: sim.metricsApiUrl,
    NODE_RPC_URL: sim.nodeUrl,
    REDIS_URL: o.redisUrl,
    // Every reuse of a parsed cache value is checked for mutation.
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    UPSTREAM_TIMEOUT_MS: '2000',
    // Tests exercise the data cache; the whole-response cache has its own tests that turn it on.
    RESPONSE_CACHE_MAX_TTL_MS: '0',
    // Every in-process request comes from one client (127.0.0.1): the budget tests turn budgets on.
    CLIENT_BUDGET_PER_MINUTE: '0',
    // Nor the plan-wide governor: the simulator charges nothing unless a test configures its plan.
    UPSTREAM_CU_PER_MINUTE: '0',
    // A loaded 2-core CI machine can hold a Redis reply past the 250 ms production bound, which would turn
    // cache assertions into misses; the tests of that bound set their own value.
    REDIS_COMMAND_TIMEOUT_MS: '2000',
    ...o.env,
  });
  const gateway = createGateway(config, o);
  // As the HTTP server sends a request: to the fast path first (a response-cache hit, or direct execution
  // of a plain JSON POST: src/http/direct.ts), and to Yoga when the fast path does not take it. So every
  // test that sends through these helpers runs the direct execution where production would.
  const send = async (body: unknown, headers: Record<string, string> = {}) => {
    const all: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
    };
    for (const [name, value] of Object.entries(headers)) all[name.toLowerCase()] = value;
    const text = JSON.stringify(body);
    const fast = await gateway.fastPath?.answer({
      method: 'POST',
      url: '/graphql',
      headers: { host: 'gateway.test', ...all, 'content-length': String(Buffer.byteLength(text)) },
      body: Buffer.from(text),
    });
    if (fast) return JSON.parse(fast.body ?? 'null') as ExecutionResult<any>;
    const res = await gateway.yoga.fetch('http://gateway.test/graphql', {
      method: 'POST',
      headers: all,
      body: text,
    });
    return (await res.json()) as ExecutionResult<any>;
  };
  // Idempotent: a served gateway is closed by the server's shutdown, then again by the fixture.
  let closing: Promise<void> | undefined;
  return {
    ...gateway,
    close: () => {
      closing ??= gateway.close();
      return closing;
    },
    config,
    exec: (doc, variables, headers) => send({ query: print(doc), variables }, headers),
    query: (query, variables, headers) => send({ query, variables }, headers),
  };
}

/** The `extensions.code` of every error, for compact assertions. */
export const codes = (r: ExecutionResult): unknown[] =>
  (r.errors ?? []).map((e) => e.extensions?.code);

/**
 * The usual file fixture: a simulator, one gateway on it (on a Redis database allocated for this file
 * (`allocateRedisDb`, flushed) when `redis` is set; in-process cache only otherwise), and the
 * simulator's counters reset before each test. `gateway` passes further options to the gateway.
 * `bind` receives them once they are up, with the database's URL (awaited). The file's own set-up goes in
 * its own `beforeAll`: registered after this call, it runs after the fixture's (its `afterAll` before).
 */
type FixtureGatewayOptions = Omit<Parameters<typeof createTestGateway>[1], 'redisUrl'>;
interface FixtureOptions {
  redis?: boolean;
  sim?: Parameters<typeof startTestSimulator>[0];
  /** Or a function of the simulator, for options that name it (`LIVE_WS` on its websocket). */
  gateway?: FixtureGatewayOptions | ((sim: RunningSimulator) => FixtureGatewayOptions);
  /**
   * The gateway follows the simulator's C-Chain websocket (LIVE_WS, a 600 ms live lock), with these
   * further settings.
   */
  live?: Record<string, string>;
}
export function useSimAndGateway(
  o: FixtureOptions & { redis: true },
  bind: (sim: RunningSimulator, gw: TestGateway, redisUrl: string) => void | Promise<void>,
): void;
export function useSimAndGateway(
  o: FixtureOptions,
  bind: (sim: RunningSimulator, gw: TestGateway) => void | Promise<void>,
): void;
export function useSimAndGateway(
  o: FixtureOptions,
  bind: (sim: RunningSimulator, gw: TestGateway, redisUrl: string) => void | Promise<void>,
): void {
  let sim: RunningSimulator | undefined;
  let gw: TestGateway | undefined;
  beforeAll(async () => {
    const redisUrl = o.redis ? await allocateRedisDb() : undefined;
    sim = await startTestSimulator(o.sim);
    const options = typeof o.gateway === 'function' ? o.gateway(sim) : o.gateway;
    const live = o.live && { LIVE_WS: `43114=${sim.wsUrl}`, LIVE_LOCK_TTL_MS: '600', ...o.live };
    gw = createTestGateway(sim, { ...options, env: { ...live, ...options?.env }, redisUrl });
    await gw.ready();
    await bind(sim, gw, redisUrl ?? '');
  });
  afterAll(async () => {
    await gw?.close();
    await sim?.close();
  });
  beforeEach(() => sim?.reset());
}

/**
 * The fixture of a file whose tests each build their own gateways (different env, deps, Redis): the
 * simulator alone, started before the file's tests, closed after them, its counters reset before each
 * test. `bind` receives it once it is up (awaited, as above). The returned `gateway` builds a test
 * gateway on it (the options of `createTestGateway`) that is closed after the test that built it.
 */
export function useSimulator(
  options: Parameters<typeof startTestSimulator>[0],
  bind?: (sim: RunningSimulator) => void | Promise<void>,
): { gateway(options?: Parameters<typeof createTestGateway>[1]): TestGateway } {
  let sim: RunningSimulator | undefined;
  const opened: TestGateway[] = [];
  beforeAll(async () => {
    sim = await startTestSimulator(options);
    await bind?.(sim);
  });
  afterAll(async () => {
    await sim?.close();
  });
  beforeEach(() => sim?.reset());
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((gw) => gw.close()));
  });
  return {
    gateway(gatewayOptions = {}) {
      if (!sim)
        throw new Error('useSimulator: gateway() is for tests and hooks, once the simulator is up');
      const gw = createTestGateway(sim, gatewayOptions);
      opened.push(gw);
      return gw;
    },
  };
}
