import type { AddressInfo } from 'node:net';
import { AccessControl, type CuLimits } from './access.js';
import { CallStats, FaultSet } from './control.js';
import { createDataApi } from './data-api/index.js';
import { type SimDelivery, SimWebhooks } from './data-api/webhooks.js';
import { createMetricsApi } from './metrics-api/index.js';
import { createNodeRpc } from './node-rpc/index.js';
import { createSimSockets, WS_PATH } from './node-rpc/ws.js';
import { createSimServer } from './server.js';
import { resolveSpecDir } from './spec.js';
import type { SimFault, SimStats, SimUpstreamOptions } from './types.js';
import { loadSpecVariation } from './vary/spec-variation.js';
import { createWorld, type World } from './world/index.js';

export type {
  SimFault,
  SimRequest,
  SimResponse,
  SimStats,
  SimUpstream,
  SimUpstreamOptions,
  UpstreamName,
} from './types.js';
export { createWorld, type World, type WorldFixtures } from './world/index.js';

export interface SimulatorOptions {
  /** @default 0 (a free port) */
  port?: number;
  /** @default '127.0.0.1' */
  host?: string;
  /** Seed of the deterministic world. @default 'avalanche' */
  seed?: string | number;
  /** Fixed latency added to every upstream answer (ms). @default 0 */
  latencyMs?: number;
  /** Serve the node's admin APIs. @default false */
  adminEnabled?: boolean;
  /** Page token lifetime (ms). @default 86_400_000 (24 h) */
  pageTokenTtlMs?: number;
  /** `x-glacier-api-key` values answered 401 (revoked) or 403 (unprivileged). @default none */
  apiKeys?: { revoked?: string[]; unprivileged?: string[] };
  /** Requests per minute per key (or per IP when unkeyed), Data and Metrics APIs. @default 1_000_000 */
  rateLimitPerMinute?: number;
  /**
   * Charge the Data API in compute units per key (or IP) like the real one: the plan's limits and the
   * published route prices (packages/simulator/src/access.ts). @default off (one request counts one, as above)
   */
  computeUnits?: CuLimits;
  /** Wall clock (ms) for token expiry and rate-limit windows. @default Date.now */
  now?: () => number;
  /**
   * Spec variation seed (`SIM_VARY`): every Data / Metrics API answer becomes a spec-valid variant
   * derived from the upstreams' OpenAPI specs (see `vary/spec-variation.ts`). @default off
   */
  vary?: string | number;
  /** Where spec variation reads the specs (`SPEC_DIR`). @default src/spec/spec-dir.ts's resolveSpecDir() */
  specDir?: string;
  /**
   * The simulated C-Chain's eth_getProof windows.
   * @default an archival node, historical-proof-query-window 43200
   */
  proofWindow?: { pruning?: boolean; historicalProofQueryWindow?: number };
  /**
   * A C-Chain block every this many ms (`SIM_BLOCK_INTERVAL_MS`), each as `POST /_sim/advance` makes one
   * (with its world step): heads, transfers and ICM deliveries keep coming with nobody calling advance.
   * @default 0 (off: the world moves only when told)
   */
  blockIntervalMs?: number;
  /**
   * What the world does beyond what a gateway reading blocks can see (`SIM_DISAGREE`, a comma list), in
   * blocks appended from now on (src/world/evm-chain.ts): `invisible-payouts`, a contract sending AVAX
   * to a plain address no transaction or log of the block names; `silent-token`, an ERC-20 whose
   * balances rebase with no transaction or `Transfer` log. @default none
   */
  disagree?: readonly SimDisagreement[];
  /**
   * The Data API's indexing lag (`SIM_INDEX_LAG_BLOCKS`): its EVM views (blocks, transactions, address
   * lists, balances, webhooks) answer as of the node's head minus this many blocks on every EVM chain,
   * while the node answers at its head (which starts this many blocks past the initial history).
   * @default 0 (the Data API indexes every block as the node accepts it)
   */
  indexLagBlocks?: number;
}

/** The `disagree` names (`SIM_DISAGREE`). */
export const SIM_DISAGREEMENTS = ['invisible-payouts', 'silent-token'] as const;
export type SimDisagreement = (typeof SIM_DISAGREEMENTS)[number];

export interface RunningSimulator {
  /** Base URL of the server, e.g. `http://127.0.0.1:4010`. */
  url: string;
  /** `${url}/data-api`: use as DATA_API_URL. */
  dataApiUrl: string;
  /** `${url}/metrics-api`: use as METRICS_API_URL. */
  metricsApiUrl: string;
  /** `${url}/node`: use as NODE_RPC_URL. */
  nodeUrl: string;
  /** The C-Chain websocket (`ws://…/node/ext/bc/C/ws`): eth_subscribe newHeads / logs. */
  wsUrl: string;
  /** Closes every open websocket (a fault); answers how many were open. */
  dropSockets(): number;
  /** Open websockets now, opened since start, and their subscriptions. */
  socketStats(): { open: number; opened: number; subscriptions: number };
  /** The world the node answers from (at its head); `fixtures` come from its initial history. */
  world: World;
  /**
   * The world the Data API answers from: the same seed and steps, its EVM chains `indexLagBlocks` behind
   * `world`'s (the very same blocks, up to there); `world` itself when the lag is 0.
   */
  indexed: World;
  /** The Data API's webhooks: registrations, the shared secret, what was delivered. */
  webhooks: SimWebhooks;
  /** The spec-variation seed, when `vary` is on. */
  vary?: string;
  /** Upstream calls since the last reset. */
  stats(): SimStats;
  /** What the rate limits did since the last reset: CUs charged (compute-unit mode), 429s answered. */
  charges(): { spentCu: number; refused: number };
  /** Clears stats, faults and rate-limit windows. */
  reset(): void;
  addFault(f: SimFault | SimFault[]): void;
  clearFaults(): void;
  close(): Promise<void>;
}

export const DEFAULT_SIM_PORT = 4010;
const DAY_MS = 86_400_000;

export async function startSimulator(opts: SimulatorOptions = {}): Promise<RunningSimulator> {
  const blockIntervalMs = opts.blockIntervalMs ?? 0;
  if (!Number.isFinite(blockIntervalMs) || blockIntervalMs < 0)
    throw new Error('blockIntervalMs must be a number >= 0');
  const lag = opts.indexLagBlocks ?? 0;
  if (!Number.isInteger(lag) || lag < 0) throw new Error('indexLagBlocks must be an integer >= 0');
  const disagreeing = (seed: string | number) => {
    const w = createWorld({ seed });
    for (const chain of w.evm.values()) {
      chain.disagree.invisiblePayouts = opts.disagree?.includes('invisible-payouts') ?? false;
      chain.disagree.silentToken = opts.disagree?.includes('silent-token') ?? false;
    }
    return w;
  };
  const world = disagreeing(opts.seed ?? 'avalanche');
  // A lagging Data API reads a world of its own (deterministic: the same blocks, appended later).
  const indexed = lag === 0 ? world : disagreeing(opts.seed ?? 'avalanche');
  if (lag > 0) {
    void world.fixtures; // from the initial history, as with no lag
    for (const c of world.chains) world.advance(c.chainId, lag);
  }
  /** Appends to the indexed world's chain what the node has had for `lag` blocks; returns those blocks. */
  const index = (chainId: string | number) => {
    const behind = world.head(chainId).number - lag - indexed.head(chainId).number;
    const added = behind > 0 ? indexed.advance(chainId, behind) : [];
    const last = added.at(-1);
    if (last && world.chain(chainId)!.block(last.number)?.hash !== last.hash)
      throw new Error(`the indexed world's block ${last.number} is not the node's`);
    return added;
  };
  const now = opts.now ?? Date.now;
  const upstreamOpts: SimUpstreamOptions = {
    adminEnabled: opts.adminEnabled ?? false,
    pageTokenTtlMs: opts.pageTokenTtlMs ?? DAY_MS,
    now,
    proofWindow: opts.proofWindow,
  };
  const stats = new CallStats();
  const faults = new FaultSet();
  const access = new AccessControl({
    ...opts.apiKeys,
    perMinute: opts.rateLimitPerMinute ?? 1_000_000,
    cu: opts.computeUnits,
    now,
  });
  let latencyMs = opts.latencyMs ?? 0;
  const variation =
    opts.vary === undefined || opts.vary === ''
      ? undefined
      : loadSpecVariation(String(opts.vary), resolveSpecDir(opts.specDir));
  const reset = () => {
    stats.reset();
    faults.clear();
    access.reset();
  };

  const webhooks = new SimWebhooks(indexed);
  const nodeRpc = createNodeRpc(world, upstreamOpts);
  const sockets = createSimSockets(nodeRpc, '43114', (m) =>
    stats.count('node WS /ext/bc/C/ws', [`/ext/bc/C/ws ${m}`]),
  );
  /**
   * Appends blocks to a known chain, tells the websockets, indexes what the lag lets the Data API see
   * (and its webhooks deliver), and (unless not) takes a world step, in both worlds alike.
   */
  const advance = (chainId: string | number, blocks: number, evolve: boolean) => {
    const added = world.advance(chainId, blocks);
    sockets.emitBlocks(world.chain(chainId)!, added);
    void webhooks.deliverBlocks(String(chainId), indexed === world ? added : index(chainId));
    const evolved = evolve ? world.evolve() : undefined;
    if (evolve && indexed !== world) indexed.evolve();
    const head = world.head(chainId);
    return {
      chainId: String(world.chain(chainId)!.info.chainId),
      head: { number: head.number, hash: head.hash, timestamp: head.timestamp },
      world: evolved ?? null,
    };
  };
  const server = createSimServer({
    upstreams: [
      {
        base: '/data-api',
        upstream: createDataApi(indexed, upstreamOpts, webhooks),
        rateLimited: true,
        keyed: true,
      },
      {
        base: '/metrics-api',
        upstream: createMetricsApi(world, upstreamOpts),
        rateLimited: true,
        keyed: false,
      },
      { base: '/node', upstream: nodeRpc, rateLimited: false, keyed: false },
    ],
    stats,
    faults,
    access,
    latencyMs: () => latencyMs,
    vary: variation
      ? (name, route, status, body, rpcMethods) =>
          name === 'data-api'
            ? variation.dataApi.vary(route, status, body)
            : name === 'metrics-api'
              ? variation.metricsApi.vary(route, status, body)
              : variation.node.vary(body, rpcMethods)
      : undefined,
    control: (method, path, body) => {
      const json = (): unknown => (body.trim() === '' ? {} : JSON.parse(body));
      try {
        const route = `${method} ${path.replace(/\/$/, '') || '/'}`;
        switch (route) {
          case 'GET /stats':
            return { status: 200, body: stats.snapshot() };
          case 'GET /charges':
            // What the compute-unit plan charged and how many 429s it answered (scripts/fair-share.ts).
            return { status: 200, body: access.charges() };
          case 'POST /reset':
            reset();
            return { status: 200, body: { ok: true } };
          case 'GET /faults':
            return { status: 200, body: { faults: faults.list() } };
          case 'POST /faults':
            return { status: 201, body: { faults: faults.add(json() as SimFault | SimFault[]) } };
          case 'DELETE /faults':
            faults.clear();
            return { status: 200, body: { ok: true } };
          case 'POST /latency': {
            const ms = (json() as { latencyMs?: unknown }).latencyMs;
            if (typeof ms !== 'number' || ms < 0)
              throw new Error('latencyMs must be a number >= 0');
            latencyMs = ms;
            return { status: 200, body: { latencyMs } };
          }
          case 'POST /advance': {
            const { chainId = '43114', blocks = 1 } = json() as {
              chainId?: string | number;
              blocks?: number;
            };
            if (!world.chain(chainId))
              return { status: 404, body: { message: `unknown chain ${chainId}` } };
            if (!Number.isInteger(blocks) || blocks < 1 || blocks > 10_000)
              throw new Error('blocks must be an integer 1..10000');
            // The rest of the world moves too (ICM deliveries, stakes, prices) unless told not to.
            const evolve = (json() as { evolve?: boolean }).evolve !== false;
            return { status: 200, body: advance(chainId, blocks, evolve) };
          }
          case 'GET /webhooks':
            return {
              status: 200,
              body: { deliveries: webhooks.deliveries() satisfies SimDelivery[] },
            };
          case 'GET /ws':
            return { status: 200, body: sockets.stats() };
          case 'POST /ws/drop':
            // The fault: every open websocket closes at once; `refuse` also turns away the next n upgrades.
            sockets.refuse(Number((json() as { refuse?: number }).refuse ?? 0));
            return { status: 200, body: { dropped: sockets.drop() } };
          case 'GET /fixtures':
            return { status: 200, body: world.fixtures };
          case 'GET /':
          case 'GET /health':
            return {
              status: 200,
              body: {
                ok: true,
                seed: world.seed,
                selfNodeId: world.selfNodeId,
                vary: variation?.seed ?? null,
                disagree: opts.disagree ?? [],
                indexLagBlocks: lag,
              },
            };
          default:
            return { status: 404, body: { message: `no control route ${route}` } };
        }
      } catch (err) {
        return { status: 400, body: { message: err instanceof Error ? err.message : String(err) } };
      }
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('upgrade', (req, socket, head) => {
    if (!sockets.upgrade(req, socket, head)) socket.destroy();
  });
  const blockTimer =
    blockIntervalMs > 0 ? setInterval(() => advance('43114', 1, true), blockIntervalMs) : undefined;
  blockTimer?.unref();
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  const url = `http://${host}:${addr.port}`;
  return {
    url,
    dataApiUrl: `${url}/data-api`,
    metricsApiUrl: `${url}/metrics-api`,
    nodeUrl: `${url}/node`,
    wsUrl: `${url.replace(/^http/, 'ws')}${WS_PATH}`,
    dropSockets: () => sockets.drop(),
    socketStats: () => sockets.stats(),
    world,
    indexed,
    webhooks,
    vary: variation?.seed,
    stats: () => stats.snapshot(),
    charges: () => access.charges(),
    reset,
    addFault: (f) => void faults.add(f),
    clearFaults: () => faults.clear(),
    close: () =>
      new Promise<void>((resolve, reject) => {
        clearInterval(blockTimer);
        sockets.close();
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
