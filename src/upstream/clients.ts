import type { Cluster, Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { Gauge } from 'prom-client';
import type { Config } from '../config.js';
import type { GatewayMetrics } from '../metrics.js';
import { cuPricer } from './compute-units.js';
import { createRedisLedger } from './cu-ledger-redis.js';
import { createDataApiClient } from './data-api.js';
import { createIcmApiClient } from './data-api-icm.js';
import { createPrimaryApiClient } from './data-api-primary.js';
import { createPrimaryNetApiClient } from './data-api-primary-net.js';
import { createPrimaryTxApiClient } from './data-api-primary-txs.js';
import { createStakingApiClient } from './data-api-staking.js';
import { createTokensApiClient } from './data-api-tokens.js';
import { DERIVATIONS, type Derivations } from './derivations.js';
import type { UpstreamName } from './errors.js';
import { createEvmStateClient } from './evm-state.js';
import { createGovernor, type HeldBack } from './governor.js';
import { type BreakerRegistry, guardHttpClient, type OpenBreaker } from './guard.js';
import { createHttpClient, type HttpClient, type UpstreamGate } from './http.js';
import { createMetricsApiClient } from './metrics-api.js';
import { createMetricsNetworkClient } from './metrics-api-network.js';
import { createNodeRpcClient } from './node-rpc.js';
import { RouteLabels } from './observe.js';
import { createPacers, gates } from './pacer.js';
import { createSignatureAggregatorClient } from './signature-aggregator.js';
import { httpTransport, type Transport } from './transport.js';

/**
 * Every upstream client of one gateway. One HTTP client per upstream (and per configured node) for the
 * process's life, sharing the retry/timeout settings and metrics; each credential paced on its own
 * `ratelimit-remaining` (pacer.ts), each route and credential behind its own circuit breaker
 * (guard.ts), and the Data API's operator credential held to the plan by one governor shared by every
 * replica (governor.ts). The Data API clients come per caller (`forCaller`): a caller's own key goes
 * with its requests only.
 */
export type UpstreamClients = ReturnType<typeof createUpstreamClients>;
export type CallerClients = ReturnType<UpstreamClients['forCaller']>;

/** How many callers' own-key client sets are kept (they are cheap to make again). */
const CALLER_CLIENTS = 256;

export function createUpstreamClients(
  config: Config,
  options: {
    metrics: GatewayMetrics;
    transport?: Transport;
    redis?: Redis | Cluster;
    /** What is derived from list items instead of read (src/upstream/derivations.ts). @default DERIVATIONS */
    derivations?: Derivations;
  },
) {
  const { metrics } = options;
  const routeLabels = new RouteLabels();
  const price = cuPricer(config.cuDefaults);
  const registries: BreakerRegistry[] = [];
  /** The upstreams with breakers: each has a gateway_upstream_breakers_open series, 0 when none is open. */
  const guardedNames = new Set<UpstreamName>();
  // The plan is the Data API's: the Metrics API takes no key, the nodes are the operator's own.
  const g = config.governor;
  const governor =
    config.upstreamCuPerMinute > 0
      ? createGovernor({
          upstream: 'data-api',
          perMinute: config.upstreamCuPerMinute,
          perDay: config.upstreamCuPerDay,
          ledger: options.redis ? createRedisLedger(options.redis) : undefined,
          systemShare: g.systemShare,
          contention: g.contention,
          maxPayers: g.maxPayers,
          fallbackShare: g.fallbackShare,
          maxBlockSec: g.maxBlockSec,
          limitFloor: g.limitFloor,
          limitHoldMs: g.limitHoldMs,
          onRefuse: (budget, work) =>
            metrics.upstreamCuRefused.inc({ upstream: 'data-api', budget, work }),
          onSpend: (cu, work) => metrics.upstreamCuGoverned.inc({ upstream: 'data-api', work }, cu),
        })
      : undefined;
  if (governor) {
    const limit = new Gauge({
      name: 'gateway_upstream_plan_cu_limit',
      help: "The operator's plan as configured (UPSTREAM_PLAN, UPSTREAM_CU_PER_MINUTE, UPSTREAM_CU_PER_DAY): compute units per window (minute, day); compare with gateway_upstream_cu_total.",
      labelNames: ['upstream', 'window'],
      registers: [metrics.registry],
    });
    limit.set({ upstream: 'data-api', window: 'minute' }, config.upstreamCuPerMinute);
    limit.set({ upstream: 'data-api', window: 'day' }, config.upstreamCuPerDay);
  }
  const httpFor = (
    name: UpstreamName,
    baseUrl: string,
    headers: Record<string, string> = {},
    gate?: UpstreamGate,
  ) => {
    const guarded = guardHttpClient(
      createHttpClient({
        name,
        baseUrl,
        headers,
        timeoutMs: config.upstreamTimeoutMs,
        retries: config.upstreamRetries,
        maxRetryAfterMs: config.maxRetryAfterMs,
        maxBodyBytes: config.upstreamMaxBodyBytes,
        transport: options.transport ?? httpTransport,
        price,
        // The governor first: a call it refuses does not wait for its pacing slot.
        gate: gates(gate, createPacers({ slowdownBelow: config.upstreamSlowdownBelow })),
        onOutcome: (outcome) => metrics.upstreamCalls.inc({ upstream: name, outcome }),
        onRetry: () => metrics.upstreamRetries.inc({ upstream: name }),
        onSpend: (route, cu) =>
          metrics.upstreamCu.inc({ upstream: name, route: routeLabels.label(name, route) }, cu),
        onAttempt: (a) => {
          metrics.upstreamLatency.observe(
            {
              upstream: a.upstream,
              method: a.method,
              route: routeLabels.label(a.upstream, a.route),
              status: a.status,
            },
            a.durationMs / 1000,
          );
        },
      }),
      { failures: config.circuitBreakerFailures, cooldownMs: config.circuitBreakerCooldownMs },
    );
    registries.push(guarded.breakers);
    guardedNames.add(name);
    return guarded;
  };
  new Gauge({
    name: 'gateway_upstream_breakers_open',
    help: 'Circuit breakers open or half-open now (route × credential), by upstream; 0 when all are closed.',
    labelNames: ['upstream'],
    registers: [metrics.registry],
    collect() {
      const open = new Map<string, number>([...guardedNames].map((u) => [u, 0]));
      for (const b of registries.flatMap((r) => r.open()))
        open.set(b.upstream, (open.get(b.upstream) ?? 0) + 1);
      for (const [upstream, n] of open) this.set({ upstream }, n);
    },
  });
  const dataApiHttp = httpFor(
    'data-api',
    config.dataApiUrl,
    config.dataApiKey ? { 'x-glacier-api-key': config.dataApiKey } : {},
    governor,
  );
  // The Metrics API needs no key; its client is the same for every request.
  const metricsHttp = httpFor('metrics-api', config.metricsApiUrl);
  const metricsApi = createMetricsApiClient(metricsHttp);
  const metricsNetworkApi = createMetricsNetworkClient(metricsHttp);
  // One client per configured node, for the process's life. Clients only ever reach these URLs.
  const nodeHttp = new Map(config.nodes.map((t) => [t.name, httpFor('node', t.url)]));
  const nodes = config.nodes.map((t) => createNodeRpcClient(t, nodeHttp.get(t.name)!));
  // EVM state endpoints: every node's C-Chain, plus the L1 EVMs named in EVM_CHAINS (≤ 40 a batch).
  const evm = [
    ...config.nodes.map((t) => ({ node: t.name, path: '/ext/bc/C/rpc' })),
    ...config.evmChains.map((c) => ({ node: c.node, path: `/ext/bc/${c.blockchainId}/rpc` })),
  ].map((e) => {
    const url = config.nodes.find((t) => t.name === e.node)!.url;
    return createEvmStateClient({ ...e, url, http: nodeHttp.get(e.node)! });
  });
  const clientsFor = (callerKey: string | null) => {
    const callerOpts = callerKey ? { headers: { 'x-glacier-api-key': callerKey } } : {};
    return {
      dataApi: createDataApiClient(dataApiHttp, callerOpts, options.derivations),
      primaryApi: createPrimaryApiClient(dataApiHttp, callerOpts),
      primaryNetApi: createPrimaryNetApiClient(dataApiHttp, callerOpts),
      primaryTxApi: createPrimaryTxApiClient(dataApiHttp, callerOpts),
      icmApi: createIcmApiClient(dataApiHttp, callerOpts),
      tokensApi: createTokensApiClient(dataApiHttp, callerOpts),
      stakingApi: createStakingApiClient(dataApiHttp, callerOpts),
      signatureAggregator: createSignatureAggregatorClient(dataApiHttp, callerOpts),
      derivations: options.derivations ?? DERIVATIONS,
    };
  };
  const callerClients = new LRUCache<string, ReturnType<typeof clientsFor>>({
    max: CALLER_CLIENTS,
  });
  return {
    /** Every open circuit breaker (upstream, route, credential kind), for `/health`. */
    openBreakers: (): OpenBreaker[] => registries.flatMap((r) => r.open()),
    /** What holds an upstream back from the plan (a 429's block, a lowered cap), for `/health`. */
    heldBack: (): HeldBack[] => governor?.heldBack() ?? [],
    /** The Data API's client with the operator's key (the webhook registration's calls). */
    dataApiHttp: dataApiHttp as HttpClient,
    metricsApi,
    metricsNetworkApi,
    nodes,
    evm,
    /**
     * The Data API clients of one request: with the caller's own key, when it brought one. They hold
     * no state of their own, so one set serves every request without a key, and a set per key is
     * kept for the callers seen last (`CALLER_CLIENTS` of them).
     */
    forCaller(callerKey: string | null) {
      const key = callerKey ?? '';
      let set = callerClients.get(key);
      if (!set) {
        set = clientsFor(callerKey);
        callerClients.set(key, set);
      }
      return set;
    },
  };
}
