import { type AddressBook, createAddressBook } from './address-book.js';
import { CHAIN_SPECS, NETWORKS, SELF_NODE_ID, SIM_L1, WORLD_HEAD_TIME } from './constants.js';
import { EvmChain } from './evm-chain.js';
import { type EvolveReport, evolveWorld, type Market } from './evolve.js';
import { IcmRegistry } from './icm.js';
import { createPrimaryNetwork } from './primary-network.js';
import { type Rng, rngFor } from './prng.js';
import type {
  EvmBlock,
  EvmChainData,
  EvmChainInfo,
  NetworkName,
  PrimaryNetworkInfo,
} from './types.js';
import type { PrimaryNetworkData } from './types-primary.js';

export type { AddressBook } from './address-book.js';
export type { EvolveReport, Market } from './evolve.js';
export * from './types.js';
export * from './types-primary.js';

/** The AVAX price (USD) the world starts with. */
export const AVAX_USD = 24.17;
export {
  NETWORKS,
  P_CHAIN_ID,
  SELF_NODE_ID,
  SIM_L1,
  TELEPORTER_ADDRESS,
  UNINDEXED_L1,
  WORLD_HEAD_TIME,
} from './constants.js';
export { bech32, cb58, cb58Decode, isBech32, isHexAddress, isHexHash, toHex } from './encoding.js';
export type { IcmRegistry } from './icm.js';
export { toChecksumAddress } from './keccak.js';
export { Rng, rngFor } from './prng.js';

/** Ids tests and examples can rely on (they exist in every seed; values depend on the seed). */
export interface WorldFixtures {
  /** Busy EOAs of 43114 (thousands of txs each), busiest first. */
  busyAddresses: string[];
  busyAddress: string;
  /** An ordinary EOA active on 43114 (a few dozen txs). */
  ordinaryAddress: string;
  /** A contract address per ERC type (same on every chain). */
  contracts: { erc20: string; erc721: string; erc1155: string; unknown: string };
  /** A successful 43114 tx with ERC-20 transfers, a 43114 native transfer, and the block holding the former. */
  txHash: string;
  nativeTxHash: string;
  blockNumber: number;
  blockHash: string;
  /** The EVM address with the most ICM messages, and one message id (its source tx exists on 43114). */
  icmAddress: string;
  icmMessageId: string;
  /** Mainnet P-Chain address owning many staking txs (bech32, no prefix), and the X address with the most UTXOs (> 1024). */
  pChainAddress: string;
  xChainAddress: string;
  /** The simulated L1's EVM chain id and subnet id. */
  l1ChainId: string;
  l1SubnetId: string;
}

/**
 * The simulator's deterministic world. Same seed, same world; `advance()` appends blocks
 * deterministically too.
 *
 * - `chains`: the EVM chains the Data API indexes: 43114 (C-Chain), 43113 (Fuji C-Chain) and the
 *   simulated L1 (`SIM_L1`, mainnet); `evm` / `chain()` give each chain's data: blocks (ascending,
 *   contiguous from `info.firstBlock`, ~2 s apart, parentHash = previous hash, txCount = its txs),
 *   transactions (each points at its block by number, hash and index; carries its ERC-20/721/1155
 *   transfers and internal txs), per-address activity indexes, contracts (ERC-20/721/1155/unknown
 *   with metadata, plus contracts created by txs), native balances and nonces at any block.
 * - `primary[network]`: P-Chain staking txs, primary-network validator periods (the simulated node
 *   `selfNodeId` among them), L1s and L1 validators, P-Chain balances, C-Chain atomic balances,
 *   and X-Chain assets / blocks / txs / UTXOs (for the node's avm.* methods).
 * - `icm`: ICM messages across chains (pending / delivered / delivered_source_not_indexed); a
 *   message with a source transaction points at a tx of the world.
 * - `now`: world time (Unix s) at creation, the C-Chain head's time; validator statuses use it.
 */
export interface World {
  seed: string;
  selfNodeId: string;
  now: number;
  networks: Record<NetworkName, PrimaryNetworkInfo>;
  chains: EvmChainInfo[];
  evm: Map<string, EvmChainData>;
  /** By decimal EVM chain id or CB58 blockchain id. */
  chain(id: string | number): EvmChainData | undefined;
  head(chainId: string | number): EvmBlock;
  /** Appends `nBlocks` head blocks with transactions to a chain; returns them. */
  advance(chainId: string | number, nBlocks: number): EvmBlock[];
  primary: Record<NetworkName, PrimaryNetworkData>;
  /** `mainnet`, `fuji` or `testnet` (= fuji). */
  network(name: string): PrimaryNetworkData | undefined;
  icm: IcmRegistry;
  addressBook: AddressBook;
  fixtures: WorldFixtures;
  /** A deterministic Rng for other simulator parts (e.g. metrics series), keyed by purpose. */
  rng(...purpose: (string | number)[]): Rng;
  /** Prices the Data API quotes; `evolve()` moves them. */
  market: Market;
  /** World steps taken by `evolve()` so far. */
  version: number;
  /**
   * One step of the world beyond blocks (see `evolve.ts`): ICM deliveries, ended and started stakes,
   * P-Chain height, prices. `/_sim/advance` calls it after appending blocks.
   */
  evolve(network?: NetworkName): EvolveReport;
}

export function createWorld(opts: { seed: string | number } = { seed: 'avalanche' }): World {
  const seed = String(opts.seed);
  const book = createAddressBook(seed);
  const icm = new IcmRegistry();
  const evm = new Map<string, EvmChain>();
  const byBlockchainId = new Map<string, EvmChain>();
  const peersOf: Record<string, { chainId: string; blockchainId: string }[]> = {
    '43114': [{ chainId: SIM_L1.chainId, blockchainId: SIM_L1.blockchainId }],
    [SIM_L1.chainId]: [{ chainId: '43114', blockchainId: NETWORKS.mainnet.cChainId }],
  };
  for (const { info, shape } of CHAIN_SPECS) {
    const chain = new EvmChain(info, shape, seed, book, icm, peersOf[info.chainId] ?? []);
    chain.generate(WORLD_HEAD_TIME);
    evm.set(info.chainId, chain);
    byBlockchainId.set(info.blockchainId, chain);
  }
  // Each primary network is built on first use (each from its own keyed Rng, so the result does not
  // depend on when or in which order they are built): startup stays fast for tests that never ask.
  const built: Partial<Record<NetworkName, PrimaryNetworkData>> = {};
  const build = (n: NetworkName) =>
    (built[n] ??= createPrimaryNetwork(seed, NETWORKS[n], WORLD_HEAD_TIME));
  const primary = {
    get mainnet() {
      return build('mainnet');
    },
    get fuji() {
      return build('fuji');
    },
  } as Record<NetworkName, PrimaryNetworkData>;
  const chain = (id: string | number) => evm.get(String(id)) ?? byBlockchainId.get(String(id));
  const mustChain = (id: string | number) => {
    const c = chain(id);
    if (!c) throw new Error(`unknown chain ${id}`);
    return c;
  };
  const world: World = {
    seed,
    selfNodeId: SELF_NODE_ID,
    now: WORLD_HEAD_TIME,
    networks: NETWORKS,
    chains: CHAIN_SPECS.map((s) => s.info),
    evm,
    chain,
    head: (id) => mustChain(id).head(),
    advance: (id, n) => mustChain(id).advance(n),
    primary,
    network: (name) =>
      name === 'mainnet'
        ? primary.mainnet
        : name === 'fuji' || name === 'testnet'
          ? primary.fuji
          : undefined,
    icm,
    addressBook: book,
    fixtures: undefined as unknown as WorldFixtures,
    rng: (...purpose) => rngFor(seed, 'ext', ...purpose),
    market: { avaxUsd: AVAX_USD },
    version: 0,
    evolve: (network = 'mainnet') => {
      world.version++;
      return evolveWorld(
        { now: world.now, icm, primary: primary[network], market: world.market },
        rngFor(seed, 'evolve', world.version),
        world.version,
      );
    },
  };
  let fixtures: WorldFixtures | undefined;
  Object.defineProperty(world, 'fixtures', {
    enumerable: true,
    get: () => (fixtures ??= buildFixtures(world, book)),
  });
  return world;
}

function buildFixtures(world: World, book: AddressBook): WorldFixtures {
  const c = world.chain('43114')!;
  const count = (a: string) => c.activity(a)?.txs.length ?? 0;
  const busyAddresses = [...book.busy].sort((a, b) => count(b) - count(a));
  const ordinaryAddress = book.ordinary.find((a) => count(a) > 20) ?? book.ordinary[0]!;
  const mid = c.transactions.slice(Math.floor(c.transactions.length / 2));
  const erc20Tx = mid.find((t) => t.status === 1 && t.erc20.length > 0 && !t.icm)!;
  const nativeTx = mid.find((t) => t.method.callType === 'NATIVE_TRANSFER' && t.status === 1)!;
  const block = c.block(erc20Tx.blockNumber)!;
  const withSource = world.icm.messages.filter((m) => m.sourceTransaction?.chainId === '43114');
  const icmCounts = new Map<string, number>();
  for (const m of withSource) icmCounts.set(m.from, (icmCounts.get(m.from) ?? 0) + 1);
  const icmAddress = [...icmCounts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
  const mainnet = world.primary.mainnet;
  return {
    busyAddresses,
    busyAddress: busyAddresses[0]!,
    ordinaryAddress,
    contracts: {
      erc20: book.erc20[0]!.address,
      erc721: book.erc721[0]!.address,
      erc1155: book.erc1155[0]!.address,
      unknown: book.unknown[0]!.address,
    },
    txHash: erc20Tx.hash,
    nativeTxHash: nativeTx.hash,
    blockNumber: block.number,
    blockHash: block.hash,
    icmAddress,
    icmMessageId: withSource.find((m) => m.from === icmAddress)!.messageId,
    pChainAddress: mainnet.pAddresses[0]!,
    xChainAddress: mainnet.xChain.addresses[0]!,
    l1ChainId: SIM_L1.chainId,
    l1SubnetId: SIM_L1.subnetId,
  };
}
