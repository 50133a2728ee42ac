import type { SimRequest, SimResponse, SimUpstream } from '../types.js';
import type { World } from '../world/index.js';
import { adminService, cChainAdminService } from './admin.js';
import { avaxService } from './avax.js';
import { avmService } from './avm.js';
import { evmMethods } from './evm.js';
import type { ProofWindowOptions } from './evm-state.js';
import { serveGeth } from './geth.js';
import { serveGorilla } from './gorilla.js';
import { serveHealth } from './health.js';
import { infoService } from './info.js';
import { NodeState } from './node-state.js';

/**
 * The simulated AvalancheGo node (mainnet; its C-Chain is the world's 43114), mounted at `/node`:
 * `/ext/info`, `/ext/admin` (only with `adminEnabled`), `/ext/health`, `/ext/bc/X`,
 * `/ext/bc/C/rpc`, `/ext/bc/C/avax`, `/ext/bc/C/admin` (only with `adminEnabled`). Chains are also
 * reachable by id and by every alias (`/ext/bc/avm`, `/ext/bc/<C-Chain id>/rpc`, aliases added by
 * admin.aliasChain); admin.alias adds route aliases. Anything else is Go's plain-text 404, which
 * is also what the real node answers for the admin API when it is not enabled (route not registered).
 */

export interface NodeRpcOptions {
  /** Serve `/ext/admin` and `/ext/bc/C/admin` (a real node needs `--api-admin-enabled`). */
  adminEnabled: boolean;
  /** Most calls in one `/ext/bc/C/rpc` batch, as on the public API node. @default 40 */
  batchLimit?: number;
  /**
   * eth_getProof windows: an archival node's historical-proof-query-window, or a pruning node.
   * @default archival, 43200
   */
  proofWindow?: ProofWindowOptions;
}

const NOT_FOUND_TEXT = '404 page not found\n';

export function createNodeRpc(world: World, opts: NodeRpcOptions): SimUpstream {
  const state = new NodeState(world, opts.adminEnabled);
  const batchLimit = opts.batchLimit ?? 40;
  const info = [infoService(state)];
  const admin = [adminService(state)];
  const avm = [avmService(state)];
  const avax = [avaxService(state)];
  const cAdmin = [cChainAdminService(state)];
  const eth = evmMethods(world, state.net.info.cChainEvmId, opts.proofWindow);

  const notFound = (req: SimRequest): SimResponse => ({
    status: 404,
    text: NOT_FOUND_TEXT,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' },
    route: `${req.method} (unmatched)`,
    rpcMethods: [],
  });

  async function handle(req: SimRequest): Promise<SimResponse> {
    const path = state.resolvePath(req.path);
    const route = (template: string) => `${req.method} ${template}`;
    switch (path) {
      case '/ext/info':
        return serveGorilla(req, route('/ext/info'), info);
      case '/ext/admin':
        return opts.adminEnabled
          ? serveGorilla(req, route('/ext/admin'), admin)
          : { ...notFound(req), route: route('/ext/admin') };
      case '/ext/health':
        return serveHealth(req, state, '');
      case '/ext/health/health':
      case '/ext/health/readiness':
      case '/ext/health/liveness':
        return serveHealth(
          req,
          state,
          path.slice('/ext/health/'.length) as 'health' | 'readiness' | 'liveness',
        );
    }
    const m = /^\/ext\/bc\/([^/]+)(\/[^/]+)?$/.exec(path);
    const chain = m ? state.chainOf(m[1]!) : undefined;
    if (!m || !chain) return notFound(req);
    const alias = chain.aliases[0];
    const sub = m[2] ?? '';
    if (alias === 'X' && sub === '') return serveGorilla(req, route('/ext/bc/X'), avm);
    if (alias === 'C' && sub === '/rpc')
      return serveGeth(req, route('/ext/bc/C/rpc'), eth, batchLimit);
    if (alias === 'C' && sub === '/avax') return serveGorilla(req, route('/ext/bc/C/avax'), avax);
    if (alias === 'C' && sub === '/admin' && opts.adminEnabled)
      return serveGorilla(req, route('/ext/bc/C/admin'), cAdmin);
    return notFound(req);
  }

  return { name: 'node', handle };
}
