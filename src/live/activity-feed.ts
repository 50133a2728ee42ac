import {
  type ActivityBlock,
  type ActivityEvent,
  type ActivityKind,
  eventFor,
  type IcmSighting,
} from './activity.js';
import type { ActivityBus } from './activity-bus.js';
import { ICM_PREFIX } from './activity-source.js';
import { SlowConsumerError } from './feed.js';
import { SubscriberQueue } from './subscriber-queue.js';

/**
 * A replica's side of address activity. Every replica hears each block's activity from the bus, in block
 * order and once (a duplicate is dropped, a gap is filled from the bus's log first), and hands each local
 * subscriber the events that touch its addresses. Its followed addresses are kept alive in the bus while
 * it is subscribed and `followMs` after (so a client that reconnects within it can resume without a hole).
 */
export interface ActivityFeedOptions {
  bus: ActivityBus;
  now?: () => number;
  /** How long an address stays followed after its last subscriber here refreshed it. @default 60_000 */
  followMs?: number;
  /**
   * Unread events plus their transfers after which a subscriber is dropped (SLOW_CONSUMER): a bound on
   * what one subscriber can make the replica hold (an event carries up to 256 transfers). @default 4096
   */
  queueMax?: number;
}

/** An event as delivered: with the block it resumes after and the head the holder read it at. */
export type DeliveredActivity = ActivityEvent & { head: string };

export class ResumeTooOldError extends Error {
  override name = 'ResumeTooOldError';
  constructor(readonly oldest: string | undefined) {
    super(
      oldest === undefined
        ? 'no activity is logged for this chain yet'
        : `the activity log reaches back to block ${oldest} only`,
    );
  }
}

interface Sub {
  chainId: string;
  addresses: ReadonlySet<string>;
  push(b: ActivityBlock): void;
  /** A webhook's event, ahead of the node's block (which then skips it for this subscriber). */
  early(b: ActivityBlock): void;
}

export class ActivityFeed {
  readonly #o: ActivityFeedOptions;
  readonly #now: () => number;
  readonly #last = new Map<string, bigint>();
  readonly #order = new Map<string, Promise<void>>();
  readonly #subs = new Set<Sub>();
  readonly #icm = new Set<{ chainId: string; messageId: string; push(s: IcmSighting): void }>();
  #timer: NodeJS.Timeout | undefined;

  constructor(options: ActivityFeedOptions) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
    options.bus.onBlock((b) => this.#receive(b));
  }

  start(): void {
    const every = Math.max(100, Math.floor((this.#o.followMs ?? 60_000) / 3));
    this.#timer = setInterval(() => void this.#refresh().catch(() => {}), every);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#o.bus.close();
  }

  subscriberCount(): number {
    return this.#subs.size;
  }

  /** The last block whose activity this replica delivered, per chain. */
  lastBlocks(): [string, bigint][] {
    return [...this.#last];
  }

  /**
   * Events from now on (or after block `from`, from the log), in block order. Resolves once the addresses
   * are followed; rejects with ResumeTooOldError when `from` is older than the log.
   */
  async subscribe(
    chainId: string,
    addresses: ReadonlySet<string>,
    kinds: ReadonlySet<ActivityKind>,
    from?: bigint,
  ): Promise<AsyncIterableIterator<DeliveredActivity>> {
    const max = this.#o.queueMax ?? 4_096;
    const weight = (e: ActivityEvent) => 1 + e.transfers.length;
    const queue = new SubscriberQueue<DeliveredActivity>(() => this.#subs.delete(sub), weight);
    let pending: ActivityBlock[] | undefined = from === undefined ? undefined : [];
    let last = from ?? -1n;
    const overflow = () => {
      queue.fail(new SlowConsumerError(`more than ${max} events and transfers unread`));
      pending = undefined;
    };
    // Transactions a webhook delivered here before the node's block holds them, by block.
    const early = new Map<string, bigint>();
    const enqueue = (e: ActivityEvent, head: string) => {
      const mine = eventFor(e, addresses, kinds);
      if (!mine) return true;
      if (queue.held + weight(mine) > max) return void overflow();
      queue.push({ ...mine, head });
      return true;
    };
    const take = (b: ActivityBlock) => {
      const n = BigInt(b.number);
      if (n <= last) return;
      last = n;
      for (const e of b.events) if (!early.has(e.txHash) && !enqueue(e, b.head)) return;
      for (const [tx, at] of early) if (at <= n) early.delete(tx);
    };
    const sub: Sub = {
      chainId,
      addresses,
      push: (b) => {
        if (queue.closed) return;
        if (pending) {
          if (pending.length >= max) overflow();
          else pending.push(b);
        } else take(b);
        queue.wake();
      },
      early: (b) => {
        // While resuming, the node's block (logged or pending) delivers the transaction instead.
        if (queue.closed || pending) return;
        for (const e of b.events) {
          if (!enqueue(e, b.head)) return;
          if (BigInt(b.number) > last) early.set(e.txHash, BigInt(b.number));
        }
        if (early.size > max) early.delete(early.keys().next().value as string);
        queue.wake();
      },
    };
    this.#subs.add(sub);
    try {
      await this.#o.bus.follow(chainId, [...addresses], this.#now() + (this.#o.followMs ?? 60_000));
      if (from !== undefined) {
        const [logged, cursor] = await Promise.all([
          this.#o.bus.since(chainId, from),
          this.#o.bus.cursor(chainId),
        ]);
        const missed = cursor !== undefined && from < cursor;
        if (missed && (logged.oldest === undefined || from + 1n < logged.oldest))
          throw new ResumeTooOldError(logged.oldest?.toString());
        for (const b of logged.blocks) take(b);
        for (const b of pending ?? []) take(b);
        pending = undefined;
      }
    } catch (e) {
      queue.end();
      throw e;
    }
    return queue;
  }

  /**
   * Teleporter receipts of `messageId` (hex, no 0x) in the blocks of `chainId`, its destination, from now
   * on; resolves once the message is followed. The returned function stops it.
   */
  async watchIcm(
    chainId: string,
    messageId: string,
    push: (s: IcmSighting) => void,
  ): Promise<() => void> {
    const w = { chainId, messageId, push };
    this.#icm.add(w);
    const until = this.#now() + (this.#o.followMs ?? 60_000);
    await this.#o.bus.follow(chainId, [`${ICM_PREFIX}${messageId}`], until);
    return () => this.#icm.delete(w);
  }

  /** Keeps every local subscriber's addresses and messages followed (one call per chain). */
  async #refresh(): Promise<void> {
    const byChain = new Map<string, Set<string>>();
    const add = (chainId: string, key: string) => {
      const set = byChain.get(chainId) ?? new Set<string>();
      set.add(key);
      byChain.set(chainId, set);
    };
    for (const s of this.#subs) for (const a of s.addresses) add(s.chainId, a);
    for (const w of this.#icm) add(w.chainId, `${ICM_PREFIX}${w.messageId}`);
    const until = this.#now() + (this.#o.followMs ?? 60_000);
    for (const [chainId, set] of byChain) await this.#o.bus.follow(chainId, [...set], until);
  }

  #receive(b: ActivityBlock): void {
    if (b.webhook) {
      for (const s of this.#subs) if (s.chainId === b.chainId) s.early(b);
      return;
    }
    const prev = this.#order.get(b.chainId) ?? Promise.resolve();
    const next = prev.then(() => this.#inOrder(b)).catch(() => {});
    this.#order.set(b.chainId, next);
  }

  async #inOrder(b: ActivityBlock): Promise<void> {
    const cur = this.#last.get(b.chainId);
    const n = BigInt(b.number);
    if (cur !== undefined && n <= cur) return;
    if (cur !== undefined && n > cur + 1n) {
      const { blocks } = await this.#o.bus.since(b.chainId, cur).catch(() => ({ blocks: [] }));
      for (const m of blocks) if (BigInt(m.number) < n) this.#deliver(m);
    }
    this.#deliver(b);
  }

  #deliver(b: ActivityBlock): void {
    const cur = this.#last.get(b.chainId);
    if (cur !== undefined && BigInt(b.number) <= cur) return;
    this.#last.set(b.chainId, BigInt(b.number));
    for (const s of this.#subs) if (s.chainId === b.chainId) s.push(b);
    for (const seen of b.icm ?? [])
      for (const w of this.#icm)
        if (w.chainId === b.chainId && w.messageId === seen.messageId) w.push(seen);
  }
}
