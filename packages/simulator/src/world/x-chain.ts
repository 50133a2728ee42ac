import { createHash } from 'node:crypto';
import { cb58, cb58Decode, toHex } from './encoding.js';
import type { Rng } from './prng.js';
import type { PrimaryNetworkInfo } from './types.js';
import type { XAsset, XBlock, XChainData, XTx, XUtxo } from './types-primary.js';

/**
 * X-Chain data for the node's `avm.*` methods: linear blocks of simple transfer txs whose outputs
 * are all still unspent. `addresses[0]` (the network's busy address) owns well over 1024 UTXOs so
 * `avm.getUTXOs` paging (limit capped at 1024) can be walked.
 */

const u32 = (n: number) => n.toString(16).padStart(8, '0');
const u64 = (n: bigint) => n.toString(16).padStart(16, '0');

export function createXChain(
  rng: Rng,
  net: PrimaryNetworkInfo,
  owners: { bech32: string[]; raw: string[] },
  headTime: number,
): XChainData {
  const assets: XAsset[] = [
    {
      assetId: net.avaxAssetId,
      assetIdHex: toHex(cb58Decode(net.avaxAssetId)),
      name: 'Avalanche',
      symbol: 'AVAX',
      denomination: 9,
    },
  ];
  for (const [name, symbol, denomination] of [
    ['Sim Asset', 'SIMA', 6],
    ['Collectible Coin', 'COLL', 0],
  ] as const) {
    const bytes = rng.bytes(32);
    assets.push({ assetId: cb58(bytes), assetIdHex: toHex(bytes), name, symbol, denomination });
  }
  const blocks: XBlock[] = [];
  const txs: XTx[] = [];
  const utxosByAddress = new Map<string, XUtxo[]>();
  const blockCount = 300;
  let parentId = cb58(rng.bytes(32));
  for (let h = 0; h < blockCount; h++) {
    const timestamp = headTime - (blockCount - h) * 10;
    const id = cb58(rng.bytes(32));
    const block: XBlock = { id, parentId, height: 1_000_000 + h, timestamp, txIds: [] };
    const nTx = rng.int(1, 3);
    for (let t = 0; t < nTx; t++) {
      const txBytes = rng.bytes(32);
      const tx: XTx = {
        id: cb58(txBytes),
        blockHeight: block.height,
        timestamp,
        utxoIds: [],
        memo: '',
      };
      const outputs: number[] = [];
      const n = rng.int(1, 3);
      for (let i = 0; i < n; i++) outputs.push(rng.int(1, owners.bech32.length - 1));
      if (rng.chance(0.9)) for (let i = rng.int(1, 6); i > 0; i--) outputs.push(0);
      outputs.forEach((ownerIdx, outputIndex) => {
        const asset = rng.chance(0.8) ? assets[0]! : rng.pick(assets);
        const amount =
          asset.denomination === 0
            ? BigInt(rng.int(1, 10))
            : rng.bigint(5000n * 10n ** BigInt(asset.denomination)) + 1n;
        const addrHex = owners.raw[ownerIdx]!;
        const bytesHex = `0000${toHex(txBytes)}${u32(outputIndex)}${asset.assetIdHex}${u32(7)}${u64(amount)}${u64(0n)}${u32(1)}${u32(1)}${addrHex}`;
        // avalanchego's UTXO id: txID.Prefix(outputIndex) = sha256(u64 output index ‖ tx id).
        const utxoId = cb58(
          createHash('sha256')
            .update(Buffer.from(u64(BigInt(outputIndex)), 'hex'))
            .update(txBytes)
            .digest(),
        );
        const utxo: XUtxo = {
          utxoId,
          txId: tx.id,
          txIdHex: toHex(txBytes),
          outputIndex,
          assetId: asset.assetId,
          amount,
          locktime: 0,
          threshold: 1,
          addresses: [owners.bech32[ownerIdx]!],
          addressHex: [addrHex],
          bytesHex,
          blockHeight: block.height,
        };
        tx.utxoIds.push(utxoId);
        const list = utxosByAddress.get(utxo.addresses[0]!) ?? [];
        list.push(utxo);
        utxosByAddress.set(utxo.addresses[0]!, list);
      });
      block.txIds.push(tx.id);
      txs.push(tx);
    }
    blocks.push(block);
    parentId = id;
  }
  const addresses = [...utxosByAddress.keys()].sort(
    (a, b) => utxosByAddress.get(b)!.length - utxosByAddress.get(a)!.length,
  );
  return {
    assets,
    blocks,
    txs,
    utxosByAddress,
    addresses,
    txById: new Map(txs.map((t) => [t.id, t])),
    blockById: new Map(blocks.map((b) => [b.id, b])),
  };
}
