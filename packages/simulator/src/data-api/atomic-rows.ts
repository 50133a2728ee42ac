import { cb58 } from '../world/encoding.js';
import type { PrimaryNetworkData } from '../world/index.js';
import type { Ctx } from './ctx.js';
import { avaxAmount } from './shape-primary.js';

/** What the primary-network transaction list routes filter on, and each transaction's answer. */
export interface Row {
  txHash: string;
  timestamp: number;
  txType: string;
  /** bech32 addresses (no chain prefix) it touched. */
  owners: string[];
  assets: Set<string>;
  json: Record<string, unknown>;
}

/** `PrimaryNetworkTxType`: the values the list routes' `txTypes` accept. */
export { PRIMARY_NETWORK_TX_TYPES as PRIMARY_TX_TYPES } from '../spec.js';

export const ATOMIC_TXS_PER_NETWORK = 48;

/**
 * The C-Chain's atomic history of one network, generated from the world's seed: exports from EVM
 * accounts and imports into them, each in a real block of the network's C-Chain (every fifth block
 * back from the head at the time of first use), moving AVAX to or from the X- or P-Chain.
 */
export function cRows(ctx: Ctx, net: PrimaryNetworkData): Row[] {
  const evm = ctx.world.chain(net.info.name === 'mainnet' ? '43114' : '43113');
  if (!evm) return [];
  const rng = ctx.world.rng('c-atomic', net.info.name);
  const owners = [...net.cAtomicBalances.keys()];
  const accounts = ctx.world.addressBook.ordinary;
  const head = evm.head().number;
  const rows: Row[] = [];
  for (let k = ATOMIC_TXS_PER_NETWORK; k >= 1; k--) {
    const block = evm.block(head - k * 5);
    if (!block || owners.length === 0) continue;
    const isExport = rng.chance(0.5);
    const owner = rng.pick(owners);
    const account = rng.pick(accounts);
    const amount = rng.bigint(20n * 10n ** 9n) + 1n;
    const txHash = cb58(rng.bytes(32));
    const asset = avaxAmount(net.info, amount);
    const other = rng.chance(0.7) ? net.info.xChainId : net.info.pChainId;
    const utxo = {
      addresses: [owner],
      asset,
      consumedOnChainId: isExport ? other : net.info.cChainId,
      createdOnChainId: isExport ? net.info.cChainId : other,
      utxoId: cb58(rng.bytes(32)),
      creationTxHash: isExport ? txHash : cb58(rng.bytes(32)),
      ...(isExport ? {} : { consumingTxHash: txHash, consumingTxTimestamp: block.timestamp }),
      locktime: 0,
      outputIndex: '0',
      threshold: 1,
      timestamp: block.timestamp,
      utxoType: 'transfer',
    };
    const common = {
      txHash,
      blockHeight: block.number,
      blockHash: block.hash,
      timestamp: block.timestamp,
      memo: '0x',
      amountUnlocked: [asset],
      amountCreated: [asset],
      sourceChain: isExport ? net.info.cChainId : other,
      destinationChain: isExport ? other : net.info.cChainId,
    };
    const json = isExport
      ? {
          ...common,
          txType: 'ExportTx',
          evmInputs: [{ fromAddress: account, asset, credentials: [] }],
          emittedUtxos: [utxo],
        }
      : {
          ...common,
          txType: 'ImportTx',
          evmOutputs: [{ toAddress: account, asset }],
          consumedUtxos: [utxo],
        };
    rows.push({
      txHash,
      timestamp: block.timestamp,
      txType: json.txType,
      owners: [owner],
      assets: new Set([net.info.avaxAssetId]),
      json,
    });
  }
  return rows;
}
