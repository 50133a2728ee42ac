import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type { ResourceKind } from '../cache/policy.js';
import { UpstreamError } from './errors.js';
import type { HttpClient } from './http.js';
import { createJsonRpcClient, type JsonRpcClient } from './jsonrpc.js';
import type { UpstreamRequest } from './request.js';
import * as admin from './schemas/node-admin.js';
import * as avm from './schemas/node-avm.js';
import { emptyResult } from './schemas/node-common.js';
import * as evm from './schemas/node-evm.js';
import * as info from './schemas/node-info.js';

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
export interface NodeTargetInfo {
  name: string;
  url: string;
}

export interface UtxoQuery {
  addresses: string[];
  sourceChain?: string;
  startIndex?: { address: string; utxo: string };
  limit: number;
}

type Req<T> = UpstreamRequest<T>;

export interface NodeRpcClient {
  readonly name: string;
  readonly info: {
    nodeId(): Req<info.NodeIdResult>;
    nodeIp(): Req<string>;
    nodeVersion(): Req<info.NodeVersion>;
    networkId(): Req<number>;
    networkName(): Req<string>;
    isBootstrapped(chain: string): Req<boolean>;
    blockchainId(alias: string): Req<string>;
    peers(nodeIds: string[]): Req<info.PeersResult>;
    uptime(subnetId?: string): Req<info.UptimeResult>;
    upgrades(): Req<info.Upgrades>;
    acps(): Req<info.AcpPreference[]>;
    vms(): Req<info.VmsResult>;
    /** @deprecated info.getTxFee is deprecated as of AvalancheGo v1.12.2. */
    txFee(): Req<info.InfoTxFee>;
  };
  readonly xChain: {
    height(): Req<string>;
    blockHex(ref: { id: string } | { height: string }): Req<string>;
    blockJson(ref: { id: string } | { height: string }): Req<avm.XBlockJson>;
    txHex(id: string): Req<string>;
    txJson(id: string): Req<avm.XTxJson>;
    /** @deprecated avm.getTxStatus is deprecated as of AvalancheGo v1.10.0. */
    txStatus(id: string): Req<string>;
    fees(): Req<z.output<typeof avm.avmTxFeeResult>>;
    utxos(q: UtxoQuery): Req<avm.UtxoPageResult>;
    assetDescription(assetId: string): Req<avm.AssetDescription>;
    /** @deprecated avm.getBalance is deprecated as of AvalancheGo v1.9.12. */
    balance(address: string, assetId: string): Req<avm.BalanceResult>;
    /** @deprecated avm.getAllBalances is deprecated as of AvalancheGo v1.9.12. */
    allBalances(address: string): Req<{ asset: string; balance: string }[]>;
    issueTx(txHex: string): Req<string>;
  };
  readonly cChain: {
    /** EVM quantities (`eth_chainId`, `eth_blockNumber`, fees…), as decimal strings. */
    quantity(method: EvmQuantityMethod): Req<string>;
    balance(address: string): Req<string>;
    transactionCount(address: string): Req<string>;
    chainConfig(): Req<evm.ChainConfig>;
    syncing(): Req<evm.SyncingResult>;
    netVersion(): Req<string>;
    clientVersion(): Req<string>;
    atomicTx(id: string): Req<evm.AtomicTxResult>;
    atomicTxStatus(id: string): Req<evm.AtomicTxStatusResult>;
    atomicUtxos(q: UtxoQuery & { sourceChain: string }): Req<avm.UtxoPageResult>;
    issueAtomicTx(txHex: string): Req<string>;
    vmConfig(): Req<evm.VmConfigEntry[]>;
    setLogLevel(level: string): Req<{ ok: true }>;
    profiler(action: ProfilerAction): Req<{ ok: true }>;
  };
  readonly admin: {
    alias(endpoint: string, alias: string): Req<{ ok: true }>;
    aliasChain(chain: string, alias: string): Req<{ ok: true }>;
    chainAliases(chain: string): Req<string[]>;
    loggerLevels(loggerName?: string): Req<admin.LoggerLevel[]>;
    setLoggerLevel(a: {
      loggerName?: string;
      logLevel?: string;
      displayLevel?: string;
    }): Req<admin.LoggerLevel[] | null>;
    loadVms(): Req<admin.LoadVmsResult>;
    profiler(action: ProfilerAction): Req<{ ok: true }>;
  };
}

export type EvmQuantityMethod =
  | 'eth_chainId'
  | 'eth_blockNumber'
  | 'eth_baseFee'
  | 'eth_maxPriorityFeePerGas'
  | 'eth_gasPrice';
export type ProfilerAction =
  | 'startCPUProfiler'
  | 'stopCPUProfiler'
  | 'memoryProfile'
  | 'lockProfile';

/**
 * A node-specific method (the admin APIs, info.getNodeID/getNodeIP/getVMs) the node refused: public API
 * nodes do not serve them, and the admin APIs exist only when enabled. Mapped to a typed GraphQL error.
 */
export class NodeMethodUnavailableError extends UpstreamError {
  readonly reason = 'NODE_METHOD_UNAVAILABLE';
  constructor(node: string, method: string, cause: UpstreamError) {
    super('node', 'rpc', {
      rpcCode: cause.rpcCode,
      request: cause.request,
      upstreamMessage: `node "${node}" does not serve ${method} (${cause.upstreamMessage ?? cause.kind}); node-specific methods are refused by public API nodes and the admin APIs must be enabled on the node`,
      cause,
    });
  }
}

/** A refusal: the node's error says so (node-errors.ts), or its HTTP server has no such route or denies it. */
function isRefusal(e: unknown): e is UpstreamError {
  if (!(e instanceof UpstreamError)) return false;
  if (e.kind === 'status') return e.status === 401 || e.status === 403 || e.status === 404;
  return e.kind === 'rpc' && e.meaning === 'refused';
}

/** The node's messages rarely say which call failed ("not found"): prefix the method, keep the rest as is. */
function namingMethod(e: unknown, method: string): unknown {
  if (!(e instanceof UpstreamError) || (e.kind !== 'rpc' && e.kind !== 'status')) return e;
  return new UpstreamError(e.upstream, e.kind, {
    status: e.status,
    rpcCode: e.rpcCode,
    retryAfterSec: e.retryAfterSec,
    request: e.request,
    meaning: e.meaning,
    upstreamMessage: `${method}: ${e.upstreamMessage ?? (e.status ? `HTTP ${e.status}` : e.kind)}`,
    cause: e,
  });
}

interface CallOptions {
  /** Refusals become NodeMethodUnavailableError. */
  nodeSpecific?: boolean;
  /** Changes node state: sent alone, never retried. */
  sideEffect?: boolean;
}

export function createNodeRpcClient(target: NodeTargetInfo, http: HttpClient): NodeRpcClient {
  const nodeKey = `${target.name}@${createHash('sha256').update(target.url).digest('hex').slice(0, 8)}`;
  const gorilla = (path: string) => createJsonRpcClient({ http, path, style: 'gorilla' });
  const ep = {
    info: gorilla('/ext/info'),
    admin: gorilla('/ext/admin'),
    x: gorilla('/ext/bc/X'),
    cRpc: createJsonRpcClient({ http, path: '/ext/bc/C/rpc', style: 'geth', maxBatchSize: 40 }),
    cAvax: gorilla('/ext/bc/C/avax'),
    cAdmin: gorilla('/ext/bc/C/admin'),
  };

  function call<S extends z.ZodType>(
    rpc: JsonRpcClient,
    resource: ResourceKind,
    method: string,
    params: unknown,
    schema: S,
    o: CallOptions = {},
  ): Req<z.output<S>> {
    const request = `POST ${rpc.path} ${method}`;
    return {
      upstream: 'node',
      resource,
      method: 'POST',
      path: rpc.path,
      // Node calls have no URL query: this part of the cache key carries the node and the JSON-RPC method.
      query: { node: nodeKey, rpc: method },
      body: params,
      async run() {
        let raw: unknown;
        try {
          raw = await rpc.call(method, params, { retry: !o.sideEffect });
        } catch (e) {
          if (o.nodeSpecific && isRefusal(e))
            throw new NodeMethodUnavailableError(target.name, method, e);
          throw namingMethod(e, method);
        }
        const parsed = schema.safeParse(raw);
        if (parsed.success) return parsed.data;
        const first = parsed.error.issues[0];
        const where = first
          ? `${first.path.join('.') || '(root)'}: ${first.message}`
          : 'unexpected shape';
        throw new UpstreamError('node', 'payload', {
          request,
          upstreamMessage: `the node's answer does not fit its contract (${where})`,
          cause: parsed.error,
        });
      },
    };
  }
  const map = <A, B>(req: Req<A>, f: (a: A) => B): Req<B> => ({
    ...req,
    run: async () => f(await req.run()),
  });
  const utxoParams = (q: UtxoQuery) => ({
    addresses: q.addresses,
    sourceChain: q.sourceChain,
    startIndex: q.startIndex,
    limit: q.limit,
    encoding: 'hex',
  });
  const node = { nodeSpecific: true };
  const write = { nodeSpecific: true, sideEffect: true };
  const issue = { sideEffect: true };

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
    xChain: {
      height: () =>
        map(
          call(ep.x, 'node.avm.getHeight', 'avm.getHeight', {}, avm.heightResult),
          (r) => r.height,
        ),
      blockHex: (ref) =>
        map(
          'id' in ref
            ? call(
                ep.x,
                'node.avm.getBlock',
                'avm.getBlock',
                { blockID: ref.id, encoding: 'hex' },
                avm.hexBlockResult,
              )
            : call(
                ep.x,
                'node.avm.getBlockByHeight',
                'avm.getBlockByHeight',
                { height: ref.height, encoding: 'hex' },
                avm.hexBlockResult,
              ),
          (r) => r.block,
        ),
      blockJson: (ref) =>
        map(
          'id' in ref
            ? call(
                ep.x,
                'node.avm.getBlock',
                'avm.getBlock',
                { blockID: ref.id, encoding: 'json' },
                avm.jsonBlockResult,
              )
            : call(
                ep.x,
                'node.avm.getBlockByHeight',
                'avm.getBlockByHeight',
                { height: ref.height, encoding: 'json' },
                avm.jsonBlockResult,
              ),
          (r) => r.block,
        ),
      txHex: (txID) =>
        map(
          call(ep.x, 'node.avm.getTx', 'avm.getTx', { txID, encoding: 'hex' }, avm.hexTxResult),
          (r) => r.tx,
        ),
      txJson: (txID) =>
        map(
          call(ep.x, 'node.avm.getTx', 'avm.getTx', { txID, encoding: 'json' }, avm.jsonTxResult),
          (r) => r.tx,
        ),
      txStatus: (txID) =>
        map(
          call(ep.x, 'node.avm.getTxStatus', 'avm.getTxStatus', { txID }, avm.txStatusResult),
          (r) => r.status,
        ),
      fees: () => call(ep.x, 'node.avm.getTxFee', 'avm.getTxFee', {}, avm.avmTxFeeResult),
      utxos: (q) =>
        call(ep.x, 'node.avm.getUTXOs', 'avm.getUTXOs', utxoParams(q), avm.utxoPageResult),
      assetDescription: (assetID) =>
        call(
          ep.x,
          'node.avm.getAssetDescription',
          'avm.getAssetDescription',
          { assetID },
          avm.assetDescriptionResult,
        ),
      balance: (address, assetID) =>
        call(
          ep.x,
          'node.avm.getBalance',
          'avm.getBalance',
          { address, assetID },
          avm.balanceResult,
        ),
      allBalances: (address) =>
        map(
          call(
            ep.x,
            'node.avm.getAllBalances',
            'avm.getAllBalances',
            { address },
            avm.allBalancesResult,
          ),
          (r) => r.balances,
        ),
      issueTx: (tx) =>
        map(
          call(
            ep.x,
            'node.issueTx',
            'avm.issueTx',
            { tx, encoding: 'hex' },
            avm.issueTxResult,
            issue,
          ),
          (r) => r.txID,
        ),
    },
    cChain: {
      quantity: (method) => call(ep.cRpc, `node.evm.${method}`, method, [], evm.quantityResult),
      balance: (address) =>
        call(
          ep.cRpc,
          'node.evm.eth_getBalance',
          'eth_getBalance',
          [address, 'latest'],
          evm.quantityResult,
        ),
      transactionCount: (address) =>
        call(
          ep.cRpc,
          'node.evm.eth_getTransactionCount',
          'eth_getTransactionCount',
          [address, 'latest'],
          evm.quantityResult,
        ),
      chainConfig: () =>
        call(
          ep.cRpc,
          'node.evm.eth_getChainConfig',
          'eth_getChainConfig',
          [],
          evm.chainConfigResult,
        ),
      syncing: () => call(ep.cRpc, 'node.evm.eth_syncing', 'eth_syncing', [], evm.syncingResult),
      netVersion: () =>
        call(ep.cRpc, 'node.evm.net_version', 'net_version', [], evm.netVersionResult),
      clientVersion: () =>
        call(
          ep.cRpc,
          'node.evm.web3_clientVersion',
          'web3_clientVersion',
          [],
          evm.clientVersionResult,
        ),
      atomicTx: (txID) =>
        call(
          ep.cAvax,
          'node.avax.getAtomicTx',
          'avax.getAtomicTx',
          { txID, encoding: 'hex' },
          evm.atomicTxResult,
        ),
      atomicTxStatus: (txID) =>
        call(
          ep.cAvax,
          'node.avax.getAtomicTxStatus',
          'avax.getAtomicTxStatus',
          { txID },
          evm.atomicTxStatusResult,
        ),
      atomicUtxos: (q) =>
        call(ep.cAvax, 'node.avax.getUTXOs', 'avax.getUTXOs', utxoParams(q), avm.utxoPageResult),
      issueAtomicTx: (tx) =>
        map(
          call(
            ep.cAvax,
            'node.issueTx',
            'avax.issueTx',
            { tx, encoding: 'hex' },
            avm.issueTxResult,
            issue,
          ),
          (r) => r.txID,
        ),
      vmConfig: () =>
        call(ep.cAdmin, 'node.admin', 'admin.getVMConfig', {}, evm.vmConfigResult, node),
      setLogLevel: (level) =>
        call(ep.cAdmin, 'node.admin', 'admin.setLogLevel', { level }, emptyResult, write),
      profiler: (action) =>
        call(ep.cAdmin, 'node.admin', `admin.${action}`, {}, emptyResult, write),
    },
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
      profiler: (action) => call(ep.admin, 'node.admin', `admin.${action}`, {}, emptyResult, write),
    },
  };
}
