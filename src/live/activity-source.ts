import {
  type ActivityBlock,
  activityOfBlock,
  ICM_TOPIC,
  type IcmSighting,
  icmOfLogs,
  type NodeLog,
  TOPIC,
} from './activity.js';
import type { ActivityBus } from './activity-bus.js';
import type { RpcSocket } from './rpc-socket.js';

/**
 * The holder's side of address activity: after its heads are published, it reads the blocks since the
 * chain's activity cursor (a fresh holder, a reconnect or a takeover resumes there, so no block is missed;
 * the bus refuses a block already published, so none is repeated) and publishes each block's events.
 * Logs are read with `eth_getLogs` over the whole gap, filtered by the union of followed addresses in the
 * topics; above `maxUnion` addresses, by the transfer topics alone and then here.
 */
export interface ActivitySourceOptions {
  chainId: string;
  bus: ActivityBus;
  now: () => number;
  /** Longest gap re-read (blocks); older blocks are skipped and the skip logged. */
  maxBackfill: number;
  /** Most addresses put into a node filter; above it, topic-only filtering. */
  maxUnion: number;
  /** Most addresses followed on one chain (the earliest-expiring interests are dropped above it). */
  maxFollowed: number;
  /** Blocks per eth_getLogs call. */
  logsSpan?: number;
  log: (level: 'info' | 'warn', message: string) => void;
}

const toHex = (n: bigint) => `0x${n.toString(16)}`;
/** An ICM message followed in the same set as addresses, told apart by this prefix. */
export const ICM_PREFIX = 'icm:';
const topicOf = (address: string) => `0x${'0'.repeat(24)}${address.slice(2)}`;

/** The eth_getLogs filters (topics only) that find every transfer from or to one of `follows`. */
export function logFilters(follows: readonly string[], maxUnion: number): (string[] | null)[][] {
  const all = [TOPIC.transfer, TOPIC.transferSingle, TOPIC.transferBatch];
  if (follows.length > maxUnion) return [[all]];
  const w = follows.map(topicOf);
  const multi = [TOPIC.transferSingle, TOPIC.transferBatch];
  return [
    [[TOPIC.transfer], w],
    [[TOPIC.transfer], null, w],
    [multi, null, w],
    [multi, null, null, w],
  ];
}

export class ActivitySource {
  readonly #o: ActivitySourceOptions;
  #skipped = 0n;

  constructor(options: ActivitySourceOptions) {
    this.#o = options;
  }

  /** Publishes the activity of every block after the cursor up to `head`, in order. */
  async upTo(head: bigint, socket: RpcSocket): Promise<void> {
    const { chainId, bus } = this.#o;
    const cur = await bus.cursor(chainId);
    let from = cur === undefined ? head : cur + 1n;
    if (head - from >= BigInt(this.#o.maxBackfill)) {
      const start = head - BigInt(this.#o.maxBackfill) + 1n;
      this.#skipped += start - from;
      this.#o.log('warn', `live ${chainId}: activity ${start - from} blocks behind; skipping them`);
      from = start;
    }
    const span = BigInt(this.#o.logsSpan ?? 32);
    for (let lo = from; lo <= head; lo += span) {
      const hi = lo + span - 1n < head ? lo + span - 1n : head;
      const all = await bus.followed(chainId, this.#o.now(), this.#o.maxFollowed);
      const follows = all.filter((a) => !a.startsWith(ICM_PREFIX));
      const messages = all.filter((a) => a.startsWith(ICM_PREFIX)).map((a) => a.slice(4));
      const set = new Set(follows);
      const logs =
        set.size > 0
          ? await this.#logs(socket, lo, hi, logFilters(follows, this.#o.maxUnion))
          : new Map();
      const icm =
        messages.length > 0
          ? await this.#icm(socket, lo, hi, messages)
          : new Map<string, IcmSighting[]>();
      for (let k = lo; k <= hi; k++) {
        const events =
          set.size > 0 ? await this.#blockEvents(socket, k, logs.get(k.toString()) ?? [], set) : [];
        const block: ActivityBlock = {
          chainId,
          number: k.toString(),
          head: head.toString(),
          events,
        };
        const sightings = icm.get(k.toString());
        if (sightings) block.icm = sightings;
        await bus.publish(block);
      }
    }
  }

  /** Teleporter receipts of the followed messages in lo..hi, by block. */
  async #icm(socket: RpcSocket, lo: bigint, hi: bigint, ids: readonly string[]) {
    const topics = [
      [ICM_TOPIC.received, ICM_TOPIC.executed, ICM_TOPIC.failed],
      ids.map((i) => `0x${i}`),
    ];
    const byBlock = new Map<string, IcmSighting[]>();
    for (const [n, logs] of await this.#logs(socket, lo, hi, [topics]))
      byBlock.set(n, icmOfLogs(logs));
    return byBlock;
  }

  /** Blocks skipped because a gap was longer than the backfill bound. */
  skipped(): bigint {
    return this.#skipped;
  }

  async #logs(
    socket: RpcSocket,
    lo: bigint,
    hi: bigint,
    filters: (string[] | null)[][],
  ): Promise<Map<string, NodeLog[]>> {
    const byBlock = new Map<string, NodeLog[]>();
    const seen = new Set<string>();
    for (const topics of filters) {
      const got = (await socket.request('eth_getLogs', [
        { fromBlock: toHex(lo), toBlock: toHex(hi), topics },
      ])) as NodeLog[];
      if (!Array.isArray(got)) throw new Error('eth_getLogs: not a list');
      for (const log of got) {
        const id = `${log.transactionHash}:${log.logIndex}`;
        if (seen.has(id)) continue;
        seen.add(id);
        const n = BigInt(log.blockNumber).toString();
        byBlock.set(n, [...(byBlock.get(n) ?? []), log]);
      }
    }
    return byBlock;
  }

  async #blockEvents(socket: RpcSocket, k: bigint, logs: NodeLog[], follows: ReadonlySet<string>) {
    const raw = (await socket.request('eth_getBlockByNumber', [toHex(k), true])) as {
      number: string;
      hash: string;
      timestamp: string;
      transactions: unknown[];
    } | null;
    if (!raw || typeof raw.hash !== 'string' || !Array.isArray(raw.transactions))
      throw new Error(`block ${k} unreadable`);
    return activityOfBlock(this.#o.chainId, raw, logs, follows);
  }
}
