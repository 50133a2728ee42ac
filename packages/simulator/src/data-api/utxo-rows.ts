import type { PrimaryNetworkData } from '../world/index.js';
import { pUtxosOf } from '../world/subnets.js';
import type { Ctx } from './ctx.js';
import { avaxAmount, utxoJson } from './shape-primary.js';

/** The UTXO rows of a set of addresses on one primary-network chain, in the route's sort order. */

export const chainKind = (net: PrimaryNetworkData, id: string): 'p' | 'x' | 'c' =>
  id === 'p-chain' || id === net.info.pChainId
    ? 'p'
    : id === 'x-chain' || id === net.info.xChainId
      ? 'x'
      : 'c';
export const chainName = { p: 'p-chain', x: 'x-chain', c: 'c-chain' } as const;

export interface UtxoRow {
  sort: bigint;
  id: string;
  json: unknown;
  amount: bigint;
  spent: boolean;
  assetId: string;
  block: number;
}

export function utxoRows(
  ctx: Ctx,
  net: PrimaryNetworkData,
  kind: 'p' | 'x' | 'c',
  addrs: string[],
  sortBy: 'timestamp' | 'amount',
): UtxoRow[] {
  const info = net.info;
  const rows = new Map<string, UtxoRow>();
  if (kind === 'p') {
    for (const a of addrs) {
      for (const u of pUtxosOf(ctx.world.seed, net, a)) {
        rows.set(u.utxoId, {
          sort: sortBy === 'amount' ? u.amount : BigInt(u.blockTimestamp),
          id: u.utxoId,
          json: utxoJson(info, u),
          amount: u.amount,
          spent: !!u.consumingTxHash,
          assetId: u.assetId,
          block: u.blockNumber,
        });
      }
    }
  } else if (kind === 'x') {
    const assets = new Map(net.xChain.assets.map((as) => [as.assetId, as]));
    for (const a of addrs) {
      for (const u of net.xChain.utxosByAddress.get(a) ?? []) {
        const as = assets.get(u.assetId)!;
        const ts = net.xChain.txById.get(u.txId)?.timestamp ?? 0;
        const json = {
          addresses: [...u.addresses],
          asset: {
            assetId: as.assetId,
            name: as.name,
            symbol: as.symbol,
            denomination: as.denomination,
            type: 'secp256k1',
            amount: u.amount.toString(),
          },
          consumedOnChainId: info.xChainId,
          createdOnChainId: info.xChainId,
          utxoId: u.utxoId,
          utxoBytes: `0x${u.bytesHex}`,
          creationTxHash: u.txId,
          locktime: u.locktime,
          outputIndex: String(u.outputIndex),
          threshold: u.threshold,
          timestamp: ts,
          utxoType: 'transfer',
        };
        rows.set(u.utxoId, {
          sort: sortBy === 'amount' ? u.amount : BigInt(ts),
          id: u.utxoId,
          json,
          amount: u.amount,
          spent: false,
          assetId: u.assetId,
          block: u.blockHeight,
        });
      }
    }
  } else {
    for (const a of addrs) {
      const v = net.cAtomicBalances.get(a);
      if (!v) continue;
      const id = `${a.slice(-12)}-atomic`;
      const ts = ctx.world.now - 3600;
      const json = {
        addresses: [a],
        asset: avaxAmount(info, v),
        consumedOnChainId: info.cChainId,
        createdOnChainId: info.xChainId,
        utxoId: id,
        creationTxHash: id,
        locktime: 0,
        outputIndex: '0',
        threshold: 1,
        timestamp: ts,
        utxoType: 'transfer',
      };
      rows.set(id, {
        sort: sortBy === 'amount' ? v : BigInt(ts),
        id,
        json,
        amount: v,
        spent: false,
        assetId: info.avaxAssetId,
        block: net.pChainHeight,
      });
    }
  }
  return [...rows.values()].sort((x, y) =>
    x.sort < y.sort ? -1 : x.sort > y.sort ? 1 : x.id < y.id ? -1 : x.id > y.id ? 1 : 0,
  );
}
