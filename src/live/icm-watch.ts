import type { IcmMessage } from '../upstream/schemas/icm.js';
import type { IcmSighting } from './activity.js';
import type { ActivityFeed } from './activity-feed.js';
import type { LiveFeed } from './feed.js';

/**
 * One interchain message's delivery as it happens: SENT (the source chain has it), FAILED (the destination
 * received it but its execution reverted; Teleporter lets it be retried), DELIVERED (final: the stream
 * ends). Two sources: the destination chain's Teleporter receipts, read by the socket holder when that
 * chain is followed live (`ReceiveCrossChainMessage` / `MessageExecuted` / `MessageExecutionFailed`), and
 * the Data API's message, re-read at the head cadence of a followed chain (its destination, else its
 * source, else every `pollMs`). Those reads go through the shared cache, so replicas polling one message
 * at one head cost about one upstream call.
 */
export type IcmDeliveryStatus = 'SENT' | 'FAILED' | 'DELIVERED';

export interface IcmUpdate {
  messageId: string;
  status: IcmDeliveryStatus;
  seenBy: 'NODE' | 'DATA_API';
  /** The followed chain's head when this was seen (null when no chain of the message is followed). */
  head: string | null;
  destinationTransactionHash: string | null;
  /** The Data API's view of the message when this was seen (null: seen on the node before it). */
  message: IcmMessage | null;
}

export interface IcmWatchDeps {
  feed: LiveFeed;
  activity?: ActivityFeed;
  /** The Data API's message (through the cache); rejects with the upstream's error (404: not indexed). */
  load(messageId: string): Promise<IcmMessage>;
  isNotFound(e: unknown): boolean;
  pollMs: number;
  /** How long a message the Data API does not know yet is waited for. */
  notFoundMs: number;
  /**
   * The most reads answered 404 before NOT_FOUND (the waits between them double from `pollMs`), so an id
   * that does not exist costs a few reads, not one a second. @default 5
   */
  notFoundReads?: number;
  /** A failure that ends the stream even in the steady state (a spent budget); others are retried. */
  isFatal?: (e: unknown) => boolean;
  now?: () => number;
}

export class IcmNotFoundError extends Error {
  override name = 'IcmNotFoundError';
}

const statusOf = (m: IcmMessage): IcmDeliveryStatus =>
  m.status === 'pending' ? 'SENT' : 'DELIVERED';
const RANK: Record<IcmDeliveryStatus, number> = { SENT: 0, FAILED: 1, DELIVERED: 2 };

export function watchIcm(deps: IcmWatchDeps, messageId: string): AsyncIterableIterator<IcmUpdate> {
  const now = deps.now ?? Date.now;
  const queue: IcmUpdate[] = [];
  let failed: Error | undefined;
  let done = false;
  let wake: (() => void) | undefined;
  const stops: (() => void)[] = [];
  let last: IcmDeliveryStatus | undefined;
  let tickChain: string | undefined;

  const stop = () => {
    done = true;
    for (const s of stops.splice(0)) s();
    wakeSleep?.();
    wake?.();
  };
  const emit = (u: IcmUpdate) => {
    if (done) return;
    // Statuses only move forward (a Data API read behind the node's receipt is not news).
    if (last !== undefined && RANK[u.status] <= RANK[last]) return;
    last = u.status;
    queue.push(u);
    if (u.status === 'DELIVERED') done = true;
    wake?.();
    if (done) for (const s of stops.splice(0)) s();
  };
  const headOf = (chainId: string | undefined) =>
    chainId ? (deps.feed.head(chainId)?.number ?? null) : null;
  const fromApi = (m: IcmMessage) =>
    emit({
      messageId,
      status: statusOf(m),
      seenBy: 'DATA_API',
      head: headOf(tickChain),
      destinationTransactionHash:
        'destinationTransaction' in m ? m.destinationTransaction.txHash.toLowerCase() : null,
      message: m,
    });
  const fromNode = (chainId: string) => (s: IcmSighting) =>
    emit({
      messageId,
      status: s.event === 'failed' ? 'FAILED' : 'DELIVERED',
      seenBy: 'NODE',
      head: headOf(chainId),
      destinationTransactionHash: s.txHash,
      message: null,
    });

  /**
   * Resolves at the next head of `tickChain` or after pollMs, whichever is first (a quiet chain still
   * gets its message re-read); early when stopped. One head read is outstanding at a time.
   */
  let nextHead: Promise<unknown> | undefined;
  let wakeSleep: (() => void) | undefined;
  const tick = async (heads: AsyncIterableIterator<unknown> | undefined, ms = deps.pollMs) => {
    let timer: NodeJS.Timeout | undefined;
    const slept = new Promise<void>((r) => {
      timer = setTimeout(r, ms);
      wakeSleep = r;
    });
    if (heads) nextHead ??= heads.next().finally(() => (nextHead = undefined));
    await Promise.race(nextHead ? [slept, nextHead] : [slept]);
    clearTimeout(timer);
    wakeSleep = undefined;
  };

  const run = async () => {
    let m: IcmMessage | undefined;
    const until = now() + deps.notFoundMs;
    const maxReads = deps.notFoundReads ?? 5;
    let wait = deps.pollMs;
    for (let reads = 1; !done && !m; reads++) {
      try {
        m = await deps.load(messageId);
      } catch (e) {
        if (!deps.isNotFound(e)) throw e;
        if (reads >= maxReads || now() + wait > until) throw new IcmNotFoundError();
        await tick(undefined, wait);
        wait *= 2;
      }
    }
    if (done || !m) return;
    const dest = m.destinationEvmChainId;
    const src = 'sourceEvmChainId' in m ? m.sourceEvmChainId : undefined;
    tickChain = deps.feed.configured(dest)
      ? dest
      : src && deps.feed.configured(src)
        ? src
        : undefined;
    if (statusOf(m) !== 'DELIVERED' && deps.activity && deps.feed.configured(dest))
      stops.push(await deps.activity.watchIcm(dest, messageId, fromNode(dest)));
    fromApi(m);
    const heads = tickChain ? deps.feed.subscribe(tickChain) : undefined;
    if (heads) stops.push(() => void heads.return?.());
    while (!done) {
      await tick(heads);
      if (done) break;
      // A failed read is retried at the next tick: the message's status is what the stream waits for.
      const next = await deps.load(messageId).catch((e: unknown) => {
        if (deps.isFatal?.(e)) throw e;
        return undefined;
      });
      if (next) fromApi(next);
    }
  };
  void run().then(
    () => stop(),
    (e: Error) => {
      failed = e;
      stop();
    },
  );

  const it: AsyncIterableIterator<IcmUpdate> = {
    [Symbol.asyncIterator]: () => it,
    next: async () => {
      for (;;) {
        const u = queue.shift();
        if (u) return { value: u, done: false };
        if (failed) throw failed;
        if (done) return { value: undefined, done: true };
        await new Promise<void>((r) => (wake = r));
        wake = undefined;
      }
    },
    return: async () => {
      stop();
      return { value: undefined, done: true };
    },
  };
  return it;
}
