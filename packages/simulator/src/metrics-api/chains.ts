import type { EvmChainInfo, World } from '../world/index.js';

/**
 * The chains the Metrics API reports on: the world's EVM chains, plus the aggregate keys
 * `total`, `mainnet` and `testnet` that the chain-metric routes accept in place of a chain id.
 */

export interface MetricsChain {
  evmChainId: number;
  chainName: string;
  blockchainId: string;
  subnetId: string;
  network: 'mainnet' | 'testnet';
}

/** A metric series source: one chain, or an aggregate over several. */
export interface SeriesKey {
  /** `43114`, `total`, `mainnet` or `testnet`. */
  key: string;
  /** The chains summed into it. */
  chains: EvmChainInfo[];
  /** First day with data (Unix s, 00:00 UTC). */
  genesis: number;
}

export const AGGREGATES = ['total', 'mainnet', 'testnet'] as const;

/** When each chain's metrics start: C-Chains at mainnet launch, L1s at the start of 2024. */
const C_CHAIN_GENESIS = Date.UTC(2020, 8, 23) / 1000;
const L1_GENESIS = Date.UTC(2024, 0, 1) / 1000;

export const genesisOf = (c: EvmChainInfo) => (c.isL1 ? L1_GENESIS : C_CHAIN_GENESIS);

function chainName(c: EvmChainInfo): string {
  if (!c.isL1) return 'c_chain';
  return c.chainName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
}

export function metricsChains(world: World): MetricsChain[] {
  return world.chains.map((c) => ({
    evmChainId: Number(c.chainId),
    chainName: chainName(c),
    blockchainId: c.blockchainId,
    subnetId: c.subnetId,
    network: c.isTestnet ? 'testnet' : 'mainnet',
  }));
}

/** The series key a `chainId` path parameter names, or undefined when it names nothing. */
export function seriesKey(world: World, chainId: string): SeriesKey | undefined {
  const pick = (chains: EvmChainInfo[]) =>
    chains.length === 0
      ? undefined
      : { key: chainId, chains, genesis: Math.min(...chains.map(genesisOf)) };
  if (chainId === 'total') return pick(world.chains);
  if (chainId === 'mainnet') return pick(world.chains.filter((c) => !c.isTestnet));
  if (chainId === 'testnet') return pick(world.chains.filter((c) => c.isTestnet));
  const c = world.chains.find((x) => x.chainId === chainId);
  return c ? pick([c]) : undefined;
}
