/**
 * What an address does in a block, read from the node: native value moved by a transaction, and token
 * transfers from its logs (ERC-20 / ERC-721 `Transfer`, ERC-1155 `TransferSingle` / `TransferBatch`).
 * One event per transaction that touches a followed address, its transfers in log order.
 */
export const ACTIVITY_KINDS = ['NATIVE', 'ERC20', 'ERC721', 'ERC1155'] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

export const TOPIC = {
  transfer: '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef',
  transferSingle: '0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62',
  transferBatch: '0x4a39dc06d4c0dbc64b70af90fd698a233a518aa5d07e595d983b8c0526c8f7fb',
} as const;

/** The most transfers one TransferBatch log yields (its arrays are client-made and unbounded). */
export const MAX_BATCH_ITEMS = 256;
/** The most transfers one event carries (an airdrop can log thousands in one transaction). */
export const MAX_EVENT_TRANSFERS = 256;

export interface ActivityTransfer {
  kind: ActivityKind;
  from: string;
  to: string;
  /** Wei or token units, decimal ('1' for an ERC-721 token). */
  value: string;
  /** The token contract (null for native value). */
  token: string | null;
  tokenId: string | null;
  logIndex: number | null;
}

export interface ActivityEvent {
  chainId: string;
  blockNumber: string;
  blockHash: string;
  /** Unix seconds. */
  blockTimestamp: number;
  txHash: string;
  txIndex: number;
  from: string;
  to: string | null;
  /** Native value of the transaction, wei. */
  value: string;
  transfers: ActivityTransfer[];
  /** Transfers of the followed addresses left out above MAX_EVENT_TRANSFERS. */
  transfersOmitted?: number;
}

/** One block's activity as the holder publishes it (every block, empty or not: gaps are detectable). */
export interface ActivityBlock {
  chainId: string;
  number: string;
  /** The chain head the holder was at when it read this block. */
  head: string;
  events: ActivityEvent[];
  /** Teleporter receipts of followed ICM messages in this block (this chain is their destination). */
  icm?: IcmSighting[];
  /** One transaction's event from the Data API's webhook, ahead of (or without) the node's block. */
  webhook?: true;
}

/** Teleporter's events on a destination chain (ITeleporterMessenger), each indexing the message id first. */
export const ICM_TOPIC = {
  received: '0x292ee90bbaf70b5d4936025e09d56ba08f3e421156b6a568cf3c2840d9343e34',
  executed: '0x34795cc6b122b9a0ae684946319f1e14a577b4e8f9b3dda9ac94c21a54d3188c',
  failed: '0x4619adc1017b82e02eaefac01a43d50d6d8de4460774bc370c3ff0210d40c985',
} as const;

export interface IcmSighting {
  /** 32-byte hex without 0x, lower case (the Data API's spelling). */
  messageId: string;
  event: keyof typeof ICM_TOPIC;
  txHash: string;
  blockNumber: string;
}

/** The Teleporter receipts among `logs`, in log order. */
export function icmOfLogs(logs: readonly NodeLog[]): IcmSighting[] {
  const out: IcmSighting[] = [];
  const sorted = [...logs].sort((a, b) => Number(a.logIndex) - Number(b.logIndex));
  for (const log of sorted) {
    if (log.removed) continue;
    const sig = log.topics[0]?.toLowerCase();
    const event = (Object.keys(ICM_TOPIC) as (keyof typeof ICM_TOPIC)[]).find(
      (k) => ICM_TOPIC[k] === sig,
    );
    const id = log.topics[1]?.toLowerCase();
    if (!event || !id || !/^0x[0-9a-f]{64}$/.test(id)) continue;
    out.push({
      messageId: id.slice(2),
      event,
      txHash: log.transactionHash.toLowerCase(),
      blockNumber: dec(log.blockNumber),
    });
  }
  return out;
}

export interface NodeLog {
  address: string;
  topics: string[];
  data: string;
  blockNumber: string;
  transactionHash: string;
  transactionIndex: string;
  logIndex: string;
  removed?: boolean;
}

interface NodeTx {
  hash: string;
  from: string;
  to: string | null;
  value: string;
  transactionIndex: string;
}

const dec = (hex: string | undefined): string =>
  hex && hex !== '0x' ? BigInt(hex).toString() : '0';
const addrOfTopic = (t: string | undefined): string | undefined =>
  t && t.length === 66 ? `0x${t.slice(26)}`.toLowerCase() : undefined;
const word = (data: string, i: number): bigint => {
  const w = data.slice(2 + i * 64, 2 + (i + 1) * 64);
  return w.length === 64 ? BigInt(`0x${w}`) : 0n;
};

/** The transfers a log carries (none when it is not one of the three events or is malformed). */
export function transfersOfLog(log: NodeLog): ActivityTransfer[] {
  const [sig, t1, t2, t3] = log.topics.map((t) => t.toLowerCase());
  const token = log.address.toLowerCase();
  const logIndex = Number(log.logIndex);
  if (sig === TOPIC.transfer) {
    const from = addrOfTopic(t1);
    const to = addrOfTopic(t2);
    if (!from || !to) return [];
    // ERC-721 indexes the token id (four topics); ERC-20 puts the amount in data (three topics).
    if (log.topics.length === 4)
      return [{ kind: 'ERC721', from, to, value: '1', token, tokenId: dec(t3), logIndex }];
    if (log.topics.length === 3 && /^0x[0-9a-f]{64}$/i.test(log.data))
      return [{ kind: 'ERC20', from, to, value: dec(log.data), token, tokenId: null, logIndex }];
    return [];
  }
  if (sig !== TOPIC.transferSingle && sig !== TOPIC.transferBatch) return [];
  const from = addrOfTopic(t2);
  const to = addrOfTopic(t3);
  if (!from || !to || !/^0x([0-9a-f]{64})*$/i.test(log.data)) return [];
  const item = (id: bigint, value: bigint): ActivityTransfer => ({
    kind: 'ERC1155',
    from,
    to,
    value: value.toString(),
    token,
    tokenId: id.toString(),
    logIndex,
  });
  if (sig === TOPIC.transferSingle) return [item(word(log.data, 0), word(log.data, 1))];
  // abi.encode(uint256[] ids, uint256[] values): two offsets, then each array's length and items.
  const words = (log.data.length - 2) / 64;
  const idsAt = Number(word(log.data, 0) / 32n);
  const valuesAt = Number(word(log.data, 1) / 32n);
  const n = Number(word(log.data, idsAt));
  if (idsAt >= words || valuesAt >= words || n !== Number(word(log.data, valuesAt))) return [];
  if (idsAt + n >= words || valuesAt + n >= words) return [];
  const out: ActivityTransfer[] = [];
  for (let i = 0; i < Math.min(n, MAX_BATCH_ITEMS); i++)
    out.push(item(word(log.data, idsAt + 1 + i), word(log.data, valuesAt + 1 + i)));
  return out;
}

/**
 * The events of one block for the followed addresses (`follows` holds them lower-case), in transaction
 * order: a transaction is in when it is from or to one, or moves a token from or to one.
 */
export function activityOfBlock(
  chainId: string,
  block: { number: string; hash: string; timestamp: string; transactions: unknown[] },
  logs: readonly NodeLog[],
  follows: ReadonlySet<string>,
): ActivityEvent[] {
  const byTx = new Map<string, ActivityTransfer[]>();
  const sorted = [...logs].sort((a, b) => Number(a.logIndex) - Number(b.logIndex));
  for (const log of sorted) {
    if (log.removed) continue;
    const mine = transfersOfLog(log).filter((t) => follows.has(t.from) || follows.has(t.to));
    if (mine.length === 0) continue;
    const key = log.transactionHash.toLowerCase();
    byTx.set(key, [...(byTx.get(key) ?? []), ...mine]);
  }
  const out: ActivityEvent[] = [];
  for (const raw of block.transactions) {
    if (typeof raw !== 'object' || raw === null) continue;
    const tx = raw as NodeTx;
    const hash = tx.hash.toLowerCase();
    const from = tx.from.toLowerCase();
    const to = tx.to ? tx.to.toLowerCase() : null;
    const tokens = byTx.get(hash) ?? [];
    const touches = follows.has(from) || (to !== null && follows.has(to));
    if (!touches && tokens.length === 0) continue;
    const value = dec(tx.value);
    const native: ActivityTransfer[] =
      touches && value !== '0'
        ? [
            {
              kind: 'NATIVE',
              from,
              to: to ?? '',
              value,
              token: null,
              tokenId: null,
              logIndex: null,
            },
          ]
        : [];
    const transfers = [...native, ...tokens];
    out.push({
      chainId,
      blockNumber: dec(block.number),
      blockHash: block.hash.toLowerCase(),
      blockTimestamp: Number(dec(block.timestamp)),
      txHash: hash,
      txIndex: Number(tx.transactionIndex),
      from,
      to,
      value,
      transfers: transfers.slice(0, MAX_EVENT_TRANSFERS),
      ...(transfers.length > MAX_EVENT_TRANSFERS
        ? { transfersOmitted: transfers.length - MAX_EVENT_TRANSFERS }
        : {}),
    });
  }
  return out.sort((a, b) => a.txIndex - b.txIndex);
}

/**
 * The event as one subscriber sees it: only transfers that touch its addresses and are of its kinds; a
 * transaction from or to one of them counts as NATIVE even without value. Undefined when nothing is left.
 */
export function eventFor(
  e: ActivityEvent,
  addresses: ReadonlySet<string>,
  kinds: ReadonlySet<ActivityKind>,
): ActivityEvent | undefined {
  const transfers = e.transfers.filter(
    (t) => kinds.has(t.kind) && (addresses.has(t.from) || addresses.has(t.to)),
  );
  const direct =
    kinds.has('NATIVE') && (addresses.has(e.from) || (e.to !== null && addresses.has(e.to)));
  if (transfers.length === 0 && !direct) return undefined;
  return transfers.length === e.transfers.length ? e : { ...e, transfers };
}
