import type { HttpClient } from './http.js';
import { cChainMethods } from './node-rpc-c.js';
import { nodeCalls } from './node-rpc-call.js';
import type { NodeRpcClient, NodeTargetInfo } from './node-rpc-types.js';
import { xChainMethods } from './node-rpc-x.js';
import * as admin from './schemas/node-admin.js';
import { emptyResult } from './schemas/node-common.js';
import * as info from './schemas/node-info.js';

export { NodeMethodUnavailableError } from './node-rpc-call.js';
export type {
  EvmQuantityMethod,
  NodeRpcClient,
  NodeTargetInfo,
  ProfilerAction,
  UtxoQuery,
} from './node-rpc-types.js';

/**
 * One configured AvalancheGo node (DESIGN: `networkNode(name)`; a client never supplies a URL). Each
 * endpoint gets its own JSON-RPC client: geth style (batched ≤ 40) for `/ext/bc/C/rpc`, gorilla style (one
 * call per request, identical calls in flight shared) for the rest. Method names are the real node's:
 * the seed's neutral `xvm.` is `avm.` on `/ext/bc/X`, its `svc.` is `avax.` on `/ext/bc/C/avax`, and the
 * C-Chain admin methods are dotted (`admin.setLogLevel`) although older docs write `admin_setLogLevel`.
 *
 * Every method only describes its call (`UpstreamRequest`): loaders decide between cache and upstream.
 * Cache keys carry the node (its configured name plus a short hash of its URL, so two deployments sharing
 * one Redis with different nodes under the same name never mix answers), the path, the method and params.
 */
export function createNodeRpcClient(target: NodeTargetInfo, http: HttpClient): NodeRpcClient {
  const calls = nodeCalls(target, http);
  const { ep, call, map, node, write, profiler } = calls;
  return {
    name: target.name,
    info: {
      nodeId: () =>
        call(ep.info, 'node.info.getNodeID', 'info.getNodeID', {}, info.getNodeIdResult, node),
      nodeIp: () =>
        map(
          call(ep.info, 'node.info.getNodeIP', 'info.getNodeIP', {}, info.getNodeIpResult, node),
          (r) => r.ip,
        ),
      nodeVersion: () =>
        call(
          ep.info,
          'node.info.getNodeVersion',
          'info.getNodeVersion',
          {},
          info.getNodeVersionResult,
        ),
      networkId: () =>
        map(
          call(ep.info, 'node.info.getNetworkID', 'info.getNetworkID', {}, info.getNetworkIdResult),
          (r) => r.networkID,
        ),
      networkName: () =>
        map(
          call(
            ep.info,
            'node.info.getNetworkName',
            'info.getNetworkName',
            {},
            info.getNetworkNameResult,
          ),
          (r) => r.networkName,
        ),
      isBootstrapped: (chain) =>
        map(
          call(
            ep.info,
            'node.info.isBootstrapped',
            'info.isBootstrapped',
            { chain },
            info.isBootstrappedResult,
          ),
          (r) => r.isBootstrapped,
        ),
      blockchainId: (alias) =>
        map(
          call(
            ep.info,
            'node.info.getBlockchainID',
            'info.getBlockchainID',
            { alias },
            info.getBlockchainIdResult,
          ),
          (r) => r.blockchainID,
        ),
      peers: (nodeIDs) =>
        call(ep.info, 'node.info.peers', 'info.peers', { nodeIDs }, info.peersResult),
      uptime: (subnetID) =>
        call(
          ep.info,
          'node.info.uptime',
          'info.uptime',
          subnetID ? { subnetID } : {},
          info.uptimeResult,
        ),
      upgrades: () => call(ep.info, 'node.info.upgrades', 'info.upgrades', {}, info.upgradesResult),
      acps: () => call(ep.info, 'node.info.acps', 'info.acps', {}, info.acpsResult),
      vms: () => call(ep.info, 'node.info.getVMs', 'info.getVMs', {}, info.getVmsResult, node),
      txFee: () => call(ep.info, 'node.info.getTxFee', 'info.getTxFee', {}, info.infoTxFeeResult),
    },
    xChain: xChainMethods(calls),
    cChain: cChainMethods(calls),
    admin: {
      alias: (endpoint, alias) =>
        call(ep.admin, 'node.admin', 'admin.alias', { endpoint, alias }, emptyResult, write),
      aliasChain: (chain, alias) =>
        call(ep.admin, 'node.admin', 'admin.aliasChain', { chain, alias }, emptyResult, write),
      chainAliases: (chain) =>
        map(
          call(
            ep.admin,
            'node.admin',
            'admin.getChainAliases',
            { chain },
            admin.chainAliasesResult,
            node,
          ),
          (r) => r.aliases,
        ),
      loggerLevels: (loggerName) =>
        call(
          ep.admin,
          'node.admin',
          'admin.getLoggerLevel',
          loggerName ? { loggerName } : {},
          admin.loggerLevelsResult,
          node,
        ),
      setLoggerLevel: (a) =>
        call(ep.admin, 'node.admin', 'admin.setLoggerLevel', a, admin.setLoggerLevelResult, write),
      loadVms: () => call(ep.admin, 'node.admin', 'admin.loadVMs', {}, admin.loadVmsResult, write),
      profiler: profiler(ep.admin),
    },
  };
}

/** The resources this client's requests name (their cache classes: `cache/policy.ts`). */
export const NODE_RPC_RESOURCES = [
  'node.info.getNodeID',
  'node.info.getNodeIP',
  'node.info.getNodeVersion',
  'node.info.getNetworkID',
  'node.info.getNetworkName',
  'node.info.getBlockchainID',
  'node.info.upgrades',
  'node.info.acps',
  'node.info.getVMs',
  'node.info.uptime',
  'node.info.isBootstrapped',
  'node.info.peers',
  'node.info.getTxFee',
  'node.admin',
] as const;
