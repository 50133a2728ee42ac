import type { SimRequest, SimResponse } from '../types.js';
import { cb58 } from '../world/index.js';
import { type GorillaService, method, serveGorilla } from './gorilla.js';
import type { NodeState } from './node-state.js';

/**
 * `/ext/health` (api/health): GET answers the health report as plain JSON (HTTP 503 when
 * unhealthy, `?tag=` filters), any other method goes to the gorilla service `health`
 * (health.health / health.readiness / health.liveness). `/ext/health/{health,readiness,liveness}`
 * answer the matching report for any HTTP method. The simulated node is always healthy.
 */

type Kind = 'health' | 'readiness' | 'liveness';

const rfc3339 = (s: number, micros: number) =>
  `${new Date(s * 1000).toISOString().slice(0, 19)}.${String(micros).padStart(6, '0')}Z`;

function report(
  state: NodeState,
  kind: Kind,
): { checks: Record<string, unknown>; healthy: boolean } {
  const now = state.world.now;
  const at = (i: number, duration: number) => ({
    timestamp: rfc3339(now, 120_000 + i * 17),
    duration,
  });
  const bootstrapped = { message: [] as string[], ...at(0, 3375) };
  if (kind === 'liveness') return { checks: {}, healthy: true };
  if (kind === 'readiness') return { checks: { bootstrapped }, healthy: true };
  const chain = (height: number, id: string, i: number) => ({
    message: {
      engine: {
        consensus: {
          lastAcceptedHeight: height,
          lastAcceptedID: id,
          longestProcessingBlock: '0s',
          processingBlocks: 0,
        },
        vm: null,
      },
      networking: { percentConnected: 0.9999592612587486 },
    },
    ...at(i, 20_000 + i * 1000),
  });
  const cHead = state.world.head('43114');
  const xHead = state.net.xChain.blocks.at(-1)!;
  return {
    checks: {
      C: chain(cHead.number, cb58(Buffer.from(cHead.hash.slice(2), 'hex')), 1),
      P: chain(state.net.pChainHeight, state.net.info.pChainId, 2),
      X: chain(xHead.height, xHead.id, 3),
      bootstrapped,
      database: at(4, 1959),
      diskspace: { message: { availableDiskBytes: 227_332_591_616 }, ...at(5, 3042) },
      network: {
        message: {
          connectedPeers: 284,
          sendFailRate: 0,
          timeSinceLastMsgReceived: '293.098ms',
          timeSinceLastMsgSent: '293.098ms',
        },
        ...at(6, 2333),
      },
      router: {
        message: { longestRunningRequest: '66.90725ms', outstandingRequests: 3 },
        ...at(7, 3542),
      },
    },
    healthy: true,
  };
}

export function healthService(state: NodeState): GorillaService {
  return {
    name: 'health',
    methods: {
      health: method({ tags: 'string[]' }, () => report(state, 'health')),
      readiness: method({ tags: 'string[]' }, () => report(state, 'readiness')),
      liveness: method({ tags: 'string[]' }, () => report(state, 'liveness')),
    },
  };
}

/** `/ext/health` and its three GET sub-routes. `sub` is '' for the base path. */
export async function serveHealth(
  req: SimRequest,
  state: NodeState,
  sub: '' | Kind,
): Promise<SimResponse> {
  if (sub === '' && req.method !== 'GET')
    return serveGorilla(req, `${req.method} /ext/health`, [healthService(state)]);
  const route = sub === '' ? 'GET /ext/health' : `${req.method} /ext/health/${sub}`;
  const r = report(state, sub === '' ? 'health' : sub);
  return {
    status: r.healthy ? 200 : 503,
    body: r,
    headers: { 'content-type': 'application/json' },
    route,
    rpcMethods: [],
  };
}
