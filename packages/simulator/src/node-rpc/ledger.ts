import {
  cb58,
  type PrimaryNetworkData,
  type World,
  type XBlock,
  type XTx,
} from '../world/index.js';
import { bech32Decode } from './addresses.js';
import {
  cExportTxBytes,
  idOf,
  sha256Hex,
  type TransferIn,
  type TransferOut,
  u64,
  utxoBytes,
  xBlockBytes,
  xTxBytes,
} from './codec.js';
import { cb58Decode, EMPTY_ID } from './go-args.js';

/**
 * What the node serves beyond the world's records, derived deterministically from them:
 * - the X-Chain's UTXO index per address, sorted by UTXO id bytes as avalanchego's database is;
 * - signed tx and block bytes for the world's X-Chain txs and blocks (`hex` encodings);
 * - shared-memory (atomic) UTXOs: into the C-Chain from the X-Chain, one set per address of the
 *   world's C-Chain atomic balances (amounts sum to that balance); into the X-Chain from the P- and
 *   C-Chain for some X-Chain addresses, the C ones created by C-Chain ExportTxs that
 *   `avax.getAtomicTx` serves (accepted in blocks of 43114).
 */

export interface LedgerUtxo {
  id: string;
  idHex: string;
  bytesHex: string;
  /** The `hex` (checksummed) encoding, filled on first use. */
  hex?: string;
}

export interface AtomicTx {
  id: string;
  bytesHex: string;
  blockHeight: number;
}

/** A world X-Chain tx as signed bytes, with the inputs and signatures those bytes carry. */
export interface XTxParts {
  hex: string;
  ins: TransferIn[];
  sigs: string[];
}

export interface Ledger {
  /** X-Chain UTXOs by 20-byte address hex, ascending by id bytes. */
  xUtxos: Map<string, LedgerUtxo[]>;
  /** Atomic UTXOs by destination ('X' | 'C'), then source chain id, then address hex. */
  atomic: Record<'X' | 'C', Map<string, Map<string, LedgerUtxo[]>>>;
  cAtomicTxs: Map<string, AtomicTx>;
  xTx(tx: XTx): XTxParts;
  xBlockHex(block: XBlock): string;
}

const hexOf = (id: string) => Buffer.from(cb58Decode(id)!).toString('hex');
const byIdBytes = (a: LedgerUtxo, b: LedgerUtxo) =>
  a.idHex < b.idHex ? -1 : a.idHex > b.idHex ? 1 : 0;

/** avalanchego's UTXO id: sha256(u64 output index ‖ tx id). */
function inputId(txIdHex: string, outputIndex: number): { id: string; idHex: string } {
  const idHex = sha256Hex(u64(outputIndex) + txIdHex);
  return { id: cb58(Buffer.from(idHex, 'hex')), idHex };
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V) {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

function buildLedger(world: World, net: PrimaryNetworkData): Ledger {
  const info = net.info;
  const avaxHex = hexOf(info.avaxAssetId);
  const xChainHex = hexOf(info.xChainId);
  const cChainHex = hexOf(info.cChainId);
  const rng = world.rng('node-rpc', 'ledger');

  const xUtxos = new Map<string, LedgerUtxo[]>();
  const utxoOutputs = new Map<string, { txIdHex: string; outputIndex: number; out: TransferOut }>();
  for (const list of net.xChain.utxosByAddress.values()) {
    for (const u of list) {
      const assetIdHex = net.xChain.assets.find((a) => a.assetId === u.assetId)!.assetIdHex;
      const out = {
        assetIdHex,
        amount: u.amount,
        locktime: u.locktime,
        threshold: u.threshold,
        addressHex: u.addressHex,
      };
      utxoOutputs.set(u.utxoId, { txIdHex: u.txIdHex, outputIndex: u.outputIndex, out });
      push(xUtxos, u.addressHex[0]!, {
        id: u.utxoId,
        idHex: hexOf(u.utxoId),
        bytesHex: u.bytesHex,
      });
    }
  }
  for (const list of xUtxos.values()) list.sort(byIdBytes);

  const atomic: Ledger['atomic'] = { X: new Map(), C: new Map() };
  const addAtomic = (
    dest: 'X' | 'C',
    source: string,
    txIdHex: string,
    outputIndex: number,
    out: TransferOut,
  ) => {
    const perSource = atomic[dest].get(source) ?? new Map<string, LedgerUtxo[]>();
    atomic[dest].set(source, perSource);
    push(perSource, out.addressHex[0]!, {
      ...inputId(txIdHex, outputIndex),
      bytesHex: utxoBytes(txIdHex, outputIndex, out),
    });
  };

  // Into the C-Chain from the X-Chain: the world's C-Chain atomic balances.
  for (const [address, balance] of net.cAtomicBalances) {
    const addrHex = bech32Decode(address).hex;
    const parts = balance > 3n ? rng.int(1, 3) : 1;
    let left = balance;
    for (let i = 0; i < parts; i++) {
      const amount = i === parts - 1 ? left : left / BigInt(parts - i + 1);
      left -= amount;
      addAtomic('C', info.xChainId, rng.hex(32), i, {
        assetIdHex: avaxHex,
        amount,
        locktime: 0,
        threshold: 1,
        addressHex: [addrHex],
      });
    }
  }

  // Into the X-Chain from the P-Chain and from the C-Chain (the latter by C-Chain ExportTxs).
  const cAtomicTxs = new Map<string, AtomicTx>();
  const cChain = world.chain(info.cChainEvmId)!;
  const evmSenders = world.addressBook.ordinary;
  net.xChain.addresses.slice(0, 60).forEach((address, k) => {
    const addrHex = bech32Decode(address).hex;
    if (k % 3 === 0) {
      const out = {
        assetIdHex: avaxHex,
        amount: BigInt(rng.int(1, 900)) * 10_000_000n,
        locktime: 0,
        threshold: 1,
        addressHex: [addrHex],
      };
      addAtomic('X', info.pChainId, rng.hex(32), 0, out);
    }
    if (k % 4 === 1) {
      const outs = Array.from({ length: rng.int(1, 2) }, () => ({
        assetIdHex: avaxHex,
        amount: BigInt(rng.int(1, 500)) * 1_000_000n,
        locktime: 0,
        threshold: 1,
        addressHex: [addrHex],
      }));
      const total = outs.reduce((s, o) => s + o.amount, 0n) + 1_000_000n;
      const sender = rng.pick(evmSenders).slice(2).toLowerCase();
      const bytesHex = cExportTxBytes(
        info.networkId,
        cChainHex,
        xChainHex,
        { addressHex: sender, amount: total, assetIdHex: avaxHex, nonce: rng.int(0, 500) },
        outs,
      );
      const blockHeight = cChain.blocks[rng.int(0, cChain.blocks.length - 1)]!.number;
      const id = idOf(bytesHex);
      cAtomicTxs.set(id, { id, bytesHex, blockHeight });
      const txIdHex = hexOf(id);
      for (const [i, o] of outs.entries()) addAtomic('X', info.cChainId, txIdHex, i, o);
    }
  });
  for (const perSource of [...atomic.X.values(), ...atomic.C.values()])
    for (const list of perSource.values()) list.sort(byIdBytes);

  const txCache = new Map<string, XTxParts>();
  const xTx = (tx: XTx): XTxParts => {
    const cached = txCache.get(tx.id);
    if (cached) return cached;
    const outs = tx.utxoIds.map((id) => utxoOutputs.get(id)!.out);
    const totals = new Map<string, bigint>();
    for (const o of outs) totals.set(o.assetIdHex, (totals.get(o.assetIdHex) ?? 0n) + o.amount);
    totals.set(avaxHex, (totals.get(avaxHex) ?? 0n) + 1_000_000n);
    const seedHex = sha256Hex(hexOf(tx.id));
    const ins = [...totals.entries()].map(([assetIdHex, amount], i) => ({
      txIdHex: sha256Hex(seedHex + u64(i)),
      outputIndex: i,
      assetIdHex,
      amount,
    }));
    const signed = xTxBytes(
      info.networkId,
      xChainHex,
      outs,
      ins,
      Buffer.from(tx.memo).toString('hex'),
    );
    const parts = { hex: signed.hex, ins, sigs: signed.sigs };
    txCache.set(tx.id, parts);
    return parts;
  };
  const xBlockHex = (block: XBlock) =>
    xBlockBytes(
      hexOf(block.parentId),
      block.height,
      block.timestamp,
      block.txIds.map((id) => xTx(net.xChain.txById.get(id)!).hex),
    );

  return { xUtxos, atomic, cAtomicTxs, xTx, xBlockHex };
}

const cache = new WeakMap<World, Ledger>();

/** The node's derived ledger for the world's mainnet (built once per world). */
export function ledgerOf(world: World): Ledger {
  let l = cache.get(world);
  if (!l) {
    l = buildLedger(world, world.primary.mainnet);
    cache.set(world, l);
  }
  return l;
}

export interface UtxoPage {
  utxos: LedgerUtxo[];
  endAddrHex: string;
  endUtxoId: string;
}

/**
 * avalanchego's `avax.GetPaginatedUTXOs`: addresses in byte order, each address's UTXOs in id order
 * resuming after (startAddr, startUtxo); a UTXO owned by several of the addresses is returned once
 * per call (it may repeat across calls). The end index is the last address searched and the last
 * UTXO id looked at.
 */
export function paginateUtxos(
  index: Map<string, LedgerUtxo[]>,
  addrHexes: string[],
  startAddrHex: string,
  startUtxoId: string,
  limit: number,
): UtxoPage {
  const utxos: LedgerUtxo[] = [];
  const seen = new Set<string>();
  let lastAddr = startAddrHex;
  let lastUtxo = startUtxoId;
  const startHex = startUtxoId === EMPTY_ID ? '' : hexOf(startUtxoId);
  for (const addr of [...new Set(addrHexes)].sort()) {
    if (addr < startAddrHex) continue;
    const from = addr === startAddrHex ? startHex : '';
    lastAddr = addr;
    for (const u of index.get(addr) ?? []) {
      if (from && u.idHex <= from) continue;
      lastUtxo = u.id;
      if (seen.has(u.id)) continue;
      utxos.push(u);
      seen.add(u.id);
      if (utxos.length >= limit) return { utxos, endAddrHex: lastAddr, endUtxoId: lastUtxo };
    }
  }
  return { utxos, endAddrHex: lastAddr, endUtxoId: lastUtxo };
}
