import { EVM_VM_ID, SUBNET_EVM_VM_ID, WORLD_HEAD_TIME } from './constants.js';
import { bech32, bytesFromLabel, cb58 } from './encoding.js';
import { rngFor } from './prng.js';
import type { PrimaryNetworkData, PUtxo } from './types-primary.js';

/**
 * Subnets and blockchains of a primary network, P-Chain UTXOs of its addresses and the AVAX supply,
 * built on first use from their own keyed Rng (same seed, same result, whenever it happens).
 * Consistent with the rest of the world: the L1s (`net.l1s`) are L1 subnets with their blockchains;
 * the primary network's subnet holds the X-Chain and C-Chain; an address's unlocked UTXOs add up to
 * its P-Chain balance.
 */
export interface BlockchainRecord {
  blockchainId: string;
  subnetId: string;
  name: string;
  vmId: string;
  createBlockTimestamp: number;
  createBlockNumber: number;
  evmChainId?: number;
  /** Raw genesis for non-EVM chains; EVM chains get `{ config: { chainId } }`. */
  rawGenesis?: string;
}

export interface SubnetRecord {
  subnetId: string;
  createBlockTimestamp: number;
  createBlockIndex: number;
  owners: string[];
  threshold: number;
  locktime: number;
  isL1: boolean;
  l1ConversionTxHash?: string;
  manager?: { blockchainId: string; contractAddress: string };
  blockchains: BlockchainRecord[];
}

export interface SubnetsData {
  /** Ascending by creation (block index). */
  subnets: SubnetRecord[];
  /** Ascending by creation (block number). */
  blockchains: BlockchainRecord[];
  subnetById: Map<string, SubnetRecord>;
  blockchainById: Map<string, BlockchainRecord>;
}

const OTHER_VMS = [
  'jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq',
  'qd2U4HDWUvMrVUeTcCHp6xH3Qpnn1XbU5MDdnBoiifFqvgXwT',
];

const built = new WeakMap<PrimaryNetworkData, SubnetsData>();

export function subnetsOf(seed: string, net: PrimaryNetworkData): SubnetsData {
  let d = built.get(net);
  if (!d) {
    d = buildSubnets(seed, net);
    built.set(net, d);
  }
  return d;
}

function buildSubnets(seed: string, net: PrimaryNetworkData): SubnetsData {
  const rng = rngFor(seed, net.info.name, 'subnets');
  const genesisTime = WORLD_HEAD_TIME - 5 * 365 * 86_400;
  const subnets: SubnetRecord[] = [];
  const chain = (
    b: Omit<BlockchainRecord, 'createBlockTimestamp' | 'createBlockNumber'>,
    at: number,
    height: number,
  ): BlockchainRecord => ({ ...b, createBlockTimestamp: at, createBlockNumber: height });
  subnets.push({
    subnetId: net.info.primarySubnetId,
    createBlockTimestamp: genesisTime,
    createBlockIndex: 0,
    owners: [],
    threshold: 0,
    locktime: 0,
    isL1: false,
    blockchains: [
      chain(
        {
          blockchainId: net.info.xChainId,
          subnetId: net.info.primarySubnetId,
          name: 'X-Chain',
          vmId: 'jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq',
          rawGenesis: '0x00',
        },
        genesisTime,
        0,
      ),
      chain(
        {
          blockchainId: net.info.cChainId,
          subnetId: net.info.primarySubnetId,
          name: 'C-Chain',
          vmId: EVM_VM_ID,
          evmChainId: Number(net.info.cChainEvmId),
        },
        genesisTime,
        0,
      ),
    ],
  });
  // Legacy subnets (most with no chain, some with a few), then the L1s (converted subnets, newest).
  const legacy = net.info.name === 'mainnet' ? 240 : 130;
  const span = (WORLD_HEAD_TIME - 400 * 86_400 - genesisTime) / legacy;
  let height = 1000;
  for (let i = 0; i < legacy; i++) {
    const at = Math.floor(genesisTime + (i + 1) * span - rng.int(0, Math.floor(span / 2)));
    height += rng.int(50, 5000);
    const subnetId = cb58(bytesFromLabel(`sim-${net.info.name}-subnet-${seed}-${i}`));
    const n = rng.chance(0.5) ? 0 : rng.int(1, 3);
    const blockchains = Array.from({ length: n }, (_, j) => {
      const evm = rng.chance(0.6);
      return chain(
        {
          blockchainId: cb58(bytesFromLabel(`sim-${net.info.name}-chain-${seed}-${i}-${j}`)),
          subnetId,
          name: `Subnet ${i} chain ${j}`,
          vmId: evm ? SUBNET_EVM_VM_ID : rng.pick(OTHER_VMS),
          ...(evm ? { evmChainId: 100_000 + i * 10 + j } : { rawGenesis: `0x${rng.hex(16)}` }),
        },
        at + 60 * (j + 1),
        height + j + 1,
      );
    });
    height += n;
    const owners = [rng.pick(net.pAddresses)];
    if (rng.chance(0.3)) owners.push(rng.pick(net.pAddresses));
    subnets.push({
      subnetId,
      createBlockTimestamp: at,
      createBlockIndex: height - n,
      owners,
      threshold: 1,
      locktime: 0,
      isL1: false,
      blockchains,
    });
  }
  net.l1s.forEach((l1, i) => {
    const at = WORLD_HEAD_TIME - (net.l1s.length - i) * 30 * 86_400;
    height += rng.int(50, 5000);
    const evm = l1.evmChainId !== undefined;
    const bc = chain(
      {
        blockchainId: l1.blockchainId,
        subnetId: l1.subnetId,
        name: l1.name,
        vmId: evm ? SUBNET_EVM_VM_ID : OTHER_VMS[1]!,
        ...(evm ? { evmChainId: Number(l1.evmChainId) } : { rawGenesis: '0x01' }),
      },
      at + 60,
      height + 1,
    );
    subnets.push({
      subnetId: l1.subnetId,
      createBlockTimestamp: at,
      createBlockIndex: height,
      owners: [rng.pick(net.pAddresses)],
      threshold: 1,
      locktime: 0,
      isL1: true,
      l1ConversionTxHash: cb58(bytesFromLabel(`sim-${net.info.name}-l1-conversion-${i}`)),
      manager: { blockchainId: l1.blockchainId, contractAddress: `0x${rng.hex(20)}` },
      blockchains: [bc],
    });
    height += 2;
  });
  const blockchains = subnets
    .flatMap((s) => s.blockchains)
    .sort((a, b) => a.createBlockNumber - b.createBlockNumber);
  return {
    subnets,
    blockchains,
    subnetById: new Map(subnets.map((s) => [s.subnetId, s])),
    blockchainById: new Map(blockchains.map((b) => [b.blockchainId, b])),
  };
}

const pUtxoCache = new WeakMap<PrimaryNetworkData, Map<string, PUtxo[]>>();

/**
 * An address's P-Chain UTXOs, ascending by (block, utxo id): its unlocked unstaked balance split
 * into `unlockedUnstakedUtxos` outputs (they add up to the balance), a few spent ones, and the
 * outputs of the staking transactions it owns.
 */
export function pUtxosOf(seed: string, net: PrimaryNetworkData, address: string): PUtxo[] {
  let cache = pUtxoCache.get(net);
  if (!cache) {
    cache = new Map();
    pUtxoCache.set(net, cache);
  }
  const hit = cache.get(address);
  if (hit) return hit;
  const bal = net.pBalances.get(address);
  const out: PUtxo[] = [];
  if (bal) {
    const rng = rngFor(seed, net.info.name, 'p-utxos', address);
    const n = bal.unlockedUnstaked > 0n ? bal.unlockedUnstakedUtxos : 0;
    let left = bal.unlockedUnstaked;
    const mk = (i: number, amount: bigint, spent: boolean): PUtxo => {
      const blockNumber = rng.int(1_000, 20_000_000);
      const blockTimestamp = WORLD_HEAD_TIME - rng.int(86_400, 900 * 86_400);
      return {
        utxoId: cb58(bytesFromLabel(`p-utxo-${net.info.name}-${address}-${i}`)),
        txHash: cb58(bytesFromLabel(`p-utxo-tx-${net.info.name}-${address}-${i}`)),
        outputIndex: rng.int(0, 3),
        addresses: [address],
        amount,
        assetId: net.info.avaxAssetId,
        createdOnChainId: net.info.pChainId,
        consumedOnChainId: net.info.pChainId,
        blockNumber,
        blockTimestamp,
        staked: false,
        utxoType: 'TRANSFER',
        threshold: 1,
        ...(spent
          ? {
              consumingTxHash: cb58(bytesFromLabel(`p-utxo-spend-${address}-${i}`)),
              consumingBlockNumber: blockNumber + 10,
              consumingBlockTimestamp: blockTimestamp + 20,
            }
          : {}),
      };
    };
    for (let i = 0; i < n; i++) {
      const amount = i === n - 1 ? left : left / BigInt(n - i) / 2n + 1n;
      left -= amount;
      out.push(mk(i, amount, false));
    }
    const spent = rng.int(0, 3);
    for (let i = 0; i < spent; i++) out.push(mk(n + i, BigInt(rng.int(1, 1_000_000_000)), true));
  }
  for (const tx of net.stakingTxs) {
    if (!tx.ownerAddresses.includes(address)) continue;
    for (const u of tx.emittedUtxos) if (u.addresses.includes(address)) out.push(u);
  }
  out.sort((a, b) => a.blockNumber - b.blockNumber || a.utxoId.localeCompare(b.utxoId));
  cache.set(address, out);
  return out;
}

/** The hrp-prefixed bech32 of a world label (for tests that want an address with no activity). */
export const quietAddress = (hrp: string, label: string): string =>
  bech32(hrp, bytesFromLabel(label, 20));
