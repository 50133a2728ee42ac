import { cuPrice } from '../upstream/compute-units.js';
import {
  type ActivityBlock,
  activityOfBlock,
  ICM_TOPIC,
  icmOfLogs,
  type NodeLog,
  TOPIC,
} from './activity.js';
import type { ActivityBus } from './activity-bus.js';
import { LogsBloom, topicOfAddress } from './bloom.js';
import type { RpcSocket } from './rpc-socket.js';

/**
 * The holder's side of address activity: after its heads are published, it reads the blocks since the
 * chain's activity cursor (a fresh holder, a reconnect or a takeover resumes there, so no block is missed;
 * the bus refuses a block already published, so none is repeated) and publishes each block's events.
 *
 * Per block: the block with its transactions (the head source's own read when it hands it over, else
 * `eth_getBlockByNumber(n, true)`, 10 CU) gives the native transfers. Its header's `logsBloom` holds every
 * log's address and indexed topics: only when it may hold a transfer topic and a followed address as an
 * indexed topic (or a Teleporter receipt topic and a followed message id) are the block's logs read, the
 * cheapest exact way at the published prices (`logsReader`): the block's receipts in one call, the
 * receipts of the transactions that could have logged, or one `eth_getLogs` by block hash. A false
 * positive costs that read and yields no event.
 */
export interface ActivitySourceOptions {
  chainId: string;
  bus: ActivityBus;
  now: () => number;
  /** Longest gap re-read (blocks); older blocks are skipped and the skip logged. */
  maxBackfill: number;
  /** Most addresses followed on one chain (the earliest-expiring interests are dropped above it). */
  maxFollowed: number;
  log: (level: 'info' | 'warn', message: string) => void;
  /** Told of every node call this reader makes, with its price (metrics). */
  onCall?: (method: string, cu: number) => void;
}

/** A block as `eth_getBlockByNumber(n, true)` returns it (the fields read here). */
export interface NodeBlock {
  number: string;
  hash: string;
  timestamp: string;
  logsBloom?: string;
  transactions: unknown[];
}

/** The ways to read one block's logs (see `logsReader`). */
export type LogsMethod = 'eth_getBlockReceipts' | 'eth_getTransactionReceipt' | 'eth_getLogs';

const toHex = (n: bigint) => `0x${n.toString(16)}`;
/** An ICM message followed in the same set as addresses, told apart by this prefix. */
export const ICM_PREFIX = 'icm:';
const TRANSFER_TOPICS = [TOPIC.transfer, TOPIC.transferSingle, TOPIC.transferBatch];
const ICM_TOPICS = Object.values(ICM_TOPIC);
/** Intrinsic gas of a transaction: one whose gas limit is no more ran no code, so it logged nothing. */
const INTRINSIC_GAS = 21_000n;

/**
 * What the bloom says may be in a block: the followed addresses that may be in a transfer log, and the
 * followed message ids that may be in a Teleporter receipt. Without a readable bloom, everything.
 */
export function bloomCandidates(
  bloomHex: unknown,
  follows: readonly string[],
  messages: readonly string[],
): { addresses: string[]; messages: string[] } {
  const bloom = LogsBloom.of(bloomHex);
  if (!bloom) return { addresses: [...follows], messages: [...messages] };
  const transfers = follows.length > 0 && TRANSFER_TOPICS.some((t) => bloom.has(t));
  const icm = messages.length > 0 && ICM_TOPICS.some((t) => bloom.has(t));
  return {
    addresses: transfers ? follows.filter((a) => bloom.has(topicOfAddress(a))) : [],
    messages: icm ? messages.filter((m) => bloom.has(`0x${m}`)) : [],
  };
}

/** The transactions of a block that could have emitted a log: those with gas beyond the intrinsic. */
export function loggingCandidates(block: NodeBlock): string[] {
  const out: string[] = [];
  for (const raw of block.transactions) {
    if (typeof raw !== 'object' || raw === null) continue;
    const tx = raw as { hash?: unknown; gas?: unknown };
    if (typeof tx.hash !== 'string') continue;
    let gas: bigint | undefined;
    try {
      gas = typeof tx.gas === 'string' ? BigInt(tx.gas) : undefined;
    } catch {
      gas = undefined;
    }
    if (gas === undefined || gas > INTRINSIC_GAS) out.push(tx.hash);
  }
  return out;
}

/**
 * The cheapest exact way to read the logs of a block whose `n` transactions could have logged, at
 * `price` (the published table: receipts Small 10 each, `eth_getLogs` XXL 200, `eth_getBlockReceipts`
 * unlisted, so the documented default Medium 20). Ties go to the fewest calls.
 */
export function logsReader(
  n: number,
  blockReceipts: boolean,
  price: (method: LogsMethod) => number = (m) => cuPrice('rpc', m),
): { method: LogsMethod; cu: number } {
  const options: { method: LogsMethod; cu: number; calls: number }[] = [
    { method: 'eth_getTransactionReceipt', cu: n * price('eth_getTransactionReceipt'), calls: n },
    { method: 'eth_getLogs', cu: price('eth_getLogs'), calls: 1 },
  ];
  if (blockReceipts)
    options.push({ method: 'eth_getBlockReceipts', cu: price('eth_getBlockReceipts'), calls: 1 });
  options.sort((a, b) => a.cu - b.cu || a.calls - b.calls);
  const best = options[0]!;
  return { method: best.method, cu: best.cu };
}

/** A node's answer that it does not serve a method (geth, Hardhat and others word it differently). */
const UNSUPPORTED =
  /not (supported|available|implemented|found)|does not exist|unsupported|-32601/i;

export class ActivitySource {
  readonly #o: ActivitySourceOptions;
  #skipped = 0n;
  /** False once the node said it does not serve eth_getBlockReceipts. */
  #blockReceipts = true;

  constructor(options: ActivitySourceOptions) {
    this.#o = options;
  }

  /**
   * Publishes the activity of every block after the cursor up to `head`, in order. `known` holds blocks
   * (with their transactions) already read by the head source, by decimal number: they are not read again.
   */
  async upTo(
    head: bigint,
    socket: RpcSocket,
    known: ReadonlyMap<string, unknown> = new Map(),
  ): Promise<void> {
    const { chainId, bus } = this.#o;
    const cur = await bus.cursor(chainId);
    let from = cur === undefined ? head : cur + 1n;
    if (head - from >= BigInt(this.#o.maxBackfill)) {
      const start = head - BigInt(this.#o.maxBackfill) + 1n;
      this.#skipped += start - from;
      this.#o.log('warn', `live ${chainId}: activity ${start - from} blocks behind; skipping them`);
      from = start;
    }
    if (from > head) return;
    const all = await bus.followed(chainId, this.#o.now(), this.#o.maxFollowed);
    const follows = all.filter((a) => !a.startsWith(ICM_PREFIX));
    const messages = all.filter((a) => a.startsWith(ICM_PREFIX)).map((a) => a.slice(4));
    const set = new Set(follows);
    const ids = new Set(messages);
    for (let k = from; k <= head; k++) {
      const block: ActivityBlock = {
        chainId,
        number: k.toString(),
        head: head.toString(),
        events: [],
      };
      if (set.size > 0 || ids.size > 0) {
        const raw = await this.#block(socket, k, known.get(k.toString()));
        const want = bloomCandidates(raw.logsBloom, follows, messages);
        const logs =
          want.addresses.length > 0 || want.messages.length > 0
            ? await this.#logs(socket, raw)
            : [];
        if (set.size > 0) block.events = activityOfBlock(chainId, raw, logs, set);
        const sightings = icmOfLogs(logs).filter((s) => ids.has(s.messageId));
        if (sightings.length > 0) block.icm = sightings;
      }
      await bus.publish(block);
    }
  }

  /** Blocks skipped because a gap was longer than the backfill bound. */
  skipped(): bigint {
    return this.#skipped;
  }

  async #call(socket: RpcSocket, method: string, params: unknown[]): Promise<unknown> {
    this.#o.onCall?.(method, cuPrice('rpc', method));
    return socket.request(method, params);
  }

  async #block(socket: RpcSocket, k: bigint, handed: unknown): Promise<NodeBlock> {
    const full = (b: unknown): b is NodeBlock => {
      const raw = b as NodeBlock | null;
      return (
        typeof raw === 'object' &&
        raw !== null &&
        typeof raw.hash === 'string' &&
        Array.isArray(raw.transactions) &&
        raw.transactions.every((t) => typeof t === 'object' && t !== null) &&
        typeof raw.number === 'string' &&
        /^0x[0-9a-f]+$/i.test(raw.number) &&
        BigInt(raw.number) === k
      );
    };
    if (full(handed)) return handed;
    const raw = await this.#call(socket, 'eth_getBlockByNumber', [toHex(k), true]);
    if (!full(raw)) throw new Error(`block ${k} unreadable`);
    return raw;
  }

  /** Every log of the block, read the cheapest exact way. */
  async #logs(socket: RpcSocket, block: NodeBlock): Promise<NodeLog[]> {
    const candidates = loggingCandidates(block);
    if (candidates.length === 0) return [];
    const { method } = logsReader(candidates.length, this.#blockReceipts);
    if (method === 'eth_getBlockReceipts') {
      let got: unknown;
      try {
        got = await this.#call(socket, method, [block.hash]);
      } catch (e) {
        if (!UNSUPPORTED.test((e as Error).message)) throw e;
        this.#blockReceipts = false;
        this.#o.log('info', `live ${this.#o.chainId}: the node has no eth_getBlockReceipts`);
        return this.#logs(socket, block);
      }
      if (!Array.isArray(got) || got.length !== block.transactions.length)
        throw new Error(`block ${block.hash}: receipts unreadable`);
      return got.flatMap((r) => this.#receiptLogs(r, block.hash));
    }
    if (method === 'eth_getTransactionReceipt') {
      const out: NodeLog[] = [];
      for (const hash of candidates)
        out.push(...this.#receiptLogs(await this.#call(socket, method, [hash]), block.hash));
      return out;
    }
    // One filter by the block's hash (EIP-234) and the topics read here; the rest is matched here.
    const got = await this.#call(socket, 'eth_getLogs', [
      { blockHash: block.hash, topics: [[...TRANSFER_TOPICS, ...ICM_TOPICS]] },
    ]);
    if (!Array.isArray(got)) throw new Error('eth_getLogs: not a list');
    return got as NodeLog[];
  }

  /** A receipt's logs; it must be of the block read (else the chain moved under the reader). */
  #receiptLogs(raw: unknown, blockHash: string): NodeLog[] {
    const r = raw as { blockHash?: unknown; logs?: unknown } | null;
    if (typeof r !== 'object' || r === null || !Array.isArray(r.logs))
      throw new Error(`block ${blockHash}: receipt unreadable`);
    if (typeof r.blockHash !== 'string' || r.blockHash.toLowerCase() !== blockHash.toLowerCase())
      throw new Error(`block ${blockHash}: a receipt of another block`);
    return r.logs as NodeLog[];
  }
}
