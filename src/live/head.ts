import { keccak_256 } from '@noble/hashes/sha3.js';

/** One head of an EVM chain as the live feed carries it (from the node's newHeads / eth_getBlockByNumber). */
export interface Head {
  chainId: string;
  /** Block number, decimal string. */
  number: string;
  hash: string;
  parentHash: string;
  /** Unix seconds. */
  timestamp: number;
  gasUsed: string;
  gasLimit: string;
  /** Wei, decimal string; null when the header has none (before London): never shown as 0. */
  baseFee: string | null;
  /** Transactions in the block (null when only the header was seen). */
  txCount: number | null;
  /**
   * Which addresses the block may have changed, for freshness by change (src/live/touches.ts): read
   * from a block with its transactions; absent when only the header was seen (nothing can be ruled out).
   */
  touch?: BlockTouch;
  /** When the feed received it (epoch ms). */
  seenAt: number;
}

/**
 * What a block touched, as far as its body shows: the lower-case `from` and `to` of its transactions
 * (for a contract creation, whose `to` is null, the address it deploys to), and its header's `logsBloom`, which holds every log's emitter
 * and indexed topics (token transfers name their parties there). `'all'`: the block can rule nothing
 * out (more than `TOUCH_MAX_ADDRESSES` parties, or a header without a bloom).
 */
export type BlockTouch = { addresses: string[]; bloom: string } | 'all';

/** Parties kept per block: a bus message stays small (about 22 KB at most); a busier block touches "all". */
export const TOUCH_MAX_ADDRESSES = 512;

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const BLOOM = /^0x[0-9a-fA-F]{512}$/;

/** The touch of a block read with its transactions; undefined when its transactions are hashes only. */
export function touchOf(b: Record<string, unknown>): BlockTouch | undefined {
  if (!Array.isArray(b.transactions)) return undefined;
  const parties = new Set<string>();
  for (const tx of b.transactions as unknown[]) {
    if (typeof tx !== 'object' || tx === null) return undefined;
    const { from, to, nonce } = tx as { from?: unknown; to?: unknown; nonce?: unknown };
    if (typeof from !== 'string' || !ADDRESS.test(from)) return 'all';
    parties.add(from.toLowerCase());
    if (typeof to === 'string' && ADDRESS.test(to)) parties.add(to.toLowerCase());
    else if (to !== null && to !== undefined) return 'all';
    else {
      // A creation touches the contract it deploys (its own lists begin with this transaction).
      const n = dec(nonce);
      if (n === undefined) return 'all';
      parties.add(createdAddress(from, BigInt(n)));
    }
  }
  if (typeof b.logsBloom !== 'string' || !BLOOM.test(b.logsBloom)) return 'all';
  if (parties.size > TOUCH_MAX_ADDRESSES) return 'all';
  return { addresses: [...parties].sort(), bloom: b.logsBloom.toLowerCase() };
}

/**
 * The address a creation transaction deploys its contract to: the last 20 bytes of the Keccak-256 of
 * the RLP list [sender, nonce] (Yellow Paper, eq. 86). Contracts a contract creates are not seen here.
 */
export function createdAddress(from: string, nonce: bigint): string {
  const hex = nonce.toString(16);
  const n = nonce === 0n ? [] : [...Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex')];
  const nonceItem = n.length === 1 && n[0]! < 0x80 ? n : [0x80 + n.length, ...n];
  const payload = [0x94, ...Buffer.from(from.slice(2), 'hex'), ...nonceItem];
  const hash = keccak_256(Uint8Array.from([0xc0 + payload.length, ...payload]));
  return `0x${Buffer.from(hash.slice(12)).toString('hex')}`;
}

const HEX = /^0x[0-9a-f]+$/i;
const dec = (h: unknown): string | undefined =>
  typeof h === 'string' && HEX.test(h) ? BigInt(h).toString() : undefined;

/**
 * A node's block JSON (newHeads payload or eth_getBlockByNumber result) as a Head; undefined when
 * malformed. A quantity the header lacks is never read as 0: the head is refused (the source asks
 * again), except the base fee, which a pre-London header has not.
 */
export function headOf(chainId: string, raw: unknown, seenAt: number): Head | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const b = raw as Record<string, unknown>;
  const [number, timestamp, gasUsed, gasLimit] = [b.number, b.timestamp, b.gasUsed, b.gasLimit].map(
    dec,
  );
  const baseFee = b.baseFeePerGas === undefined ? null : dec(b.baseFeePerGas);
  if (
    number === undefined ||
    timestamp === undefined ||
    gasUsed === undefined ||
    gasLimit === undefined ||
    baseFee === undefined ||
    typeof b.hash !== 'string' ||
    !/^0x[0-9a-f]{64}$/i.test(b.hash)
  )
    return undefined;
  return {
    chainId,
    number,
    hash: b.hash.toLowerCase(),
    parentHash: typeof b.parentHash === 'string' ? b.parentHash.toLowerCase() : '',
    timestamp: Number(timestamp),
    gasUsed,
    gasLimit,
    baseFee,
    txCount: Array.isArray(b.transactions) ? b.transactions.length : null,
    seenAt,
    ...withTouch(touchOf(b)),
  };
}

const withTouch = (touch: BlockTouch | undefined): { touch?: BlockTouch } =>
  touch === undefined ? {} : { touch };
