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
  /** When the feed received it (epoch ms). */
  seenAt: number;
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
  };
}
