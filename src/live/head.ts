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
  /** Wei, decimal string ('0' before London). */
  baseFee: string;
  /** Transactions in the block (null when only the header was seen). */
  txCount: number | null;
  /** When the feed received it (epoch ms). */
  seenAt: number;
}

const dec = (h: unknown): string =>
  typeof h === 'string' && /^0x[0-9a-f]+$/i.test(h) ? BigInt(h).toString() : '0';

/** A node's block JSON (newHeads payload or eth_getBlockByNumber result) as a Head; undefined when malformed. */
export function headOf(chainId: string, raw: unknown, seenAt: number): Head | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const b = raw as Record<string, unknown>;
  if (
    typeof b.number !== 'string' ||
    typeof b.hash !== 'string' ||
    !/^0x[0-9a-f]{64}$/i.test(b.hash)
  )
    return undefined;
  return {
    chainId,
    number: dec(b.number),
    hash: b.hash.toLowerCase(),
    parentHash: typeof b.parentHash === 'string' ? b.parentHash.toLowerCase() : '',
    timestamp: Number(dec(b.timestamp)),
    gasUsed: dec(b.gasUsed),
    gasLimit: dec(b.gasLimit),
    baseFee: dec(b.baseFeePerGas),
    txCount: Array.isArray(b.transactions) ? b.transactions.length : null,
    seenAt,
  };
}
