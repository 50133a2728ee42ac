import type { z } from 'zod';
import type { Page, UpstreamRequest } from './request.js';
import type * as admin from './schemas/node-admin.js';
import type * as avm from './schemas/node-avm.js';
import type * as evm from './schemas/node-evm.js';
import type * as info from './schemas/node-info.js';

/** What a node client offers (src/upstream/node-rpc.ts builds it): every method only describes its call. */
export interface NodeTargetInfo {
  name: string;
  url: string;
}

export interface UtxoQuery {
  addresses: string[];
  sourceChain?: string;
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
    /** One page of `avm.getUTXOs`; the token is the node's `endIndex` of the page before. */
    utxos(q: UtxoQuery, pageToken: string | null): Req<Page<string>>;
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
    /** Several head quantities as one cached answer (one batch), by method. */
    headQuantities(
      methods: readonly EvmQuantityMethod[],
    ): Req<Partial<Record<EvmQuantityMethod, string>>>;
    /** At `block` (a 0x block number; `latest` when omitted). */
    balance(address: string, block?: string): Req<string>;
    transactionCount(address: string, block?: string): Req<string>;
    chainConfig(): Req<evm.ChainConfig>;
    syncing(): Req<evm.SyncingResult>;
    netVersion(): Req<string>;
    clientVersion(): Req<string>;
    atomicTx(id: string): Req<evm.AtomicTxResult>;
    atomicTxStatus(id: string): Req<evm.AtomicTxStatusResult>;
    /** One page of `avax.getUTXOs` (atomic UTXOs exported to the C-Chain). */
    atomicUtxos(
      q: UtxoQuery & { sourceChain: string },
      pageToken: string | null,
    ): Req<Page<string>>;
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
