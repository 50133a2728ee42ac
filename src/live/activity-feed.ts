import { randomUUID } from 'node:crypto';
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
import { FollowShareError, type ShareLimits } from './follow-shares.js';
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
  /**
   * Each client's share of a chain's followed addresses (src/live/follow-shares.ts). @default no shares
   * (capacity and per-client share unbounded)
   */
  shares?: ShareLimits;
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
  /** Its claim on the chain's followed addresses. */
  id: string;
  chainId: string;
  addresses: ReadonlySet<string>;
  /** Ends it with a coded error (its claim was dropped). */
  fail(e: Error): void;
  push(b: ActivityBlock): void;
  /** A webhook's event, ahead of the node's block (which then skips it for this subscriber). */
  early(b: ActivityBlock): void;
}

const UNBOUNDED: ShareLimits = {
  capacity: Number.MAX_SAFE_INTEGER,
  perClient: Number.MAX_SAFE_INTEGER,
};

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
    options.bus.onDropped((chainId, ids) => this.#drop(chainId, ids));
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

  /** What the readers of `chainId` follow now (every replica's claims, then the interests kept after them). */
  followed(chainId: string, max = 100_000): Promise<string[]> {
    return this.#o.bus.followed(chainId, this.#now(), max);
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
    /** Whose share the addresses are claimed from (the gate's client). */
    client = 'anonymous',
  ): Promise<AsyncIterableIterator<DeliveredActivity>> {
    const max = this.#o.queueMax ?? 4_096;
    const weight = (e: ActivityEvent) => 1 + e.transfers.length;
    const id = randomUUID();
    const queue = new SubscriberQueue<DeliveredActivity>(() => {
      this.#subs.delete(sub);
      // Its claim goes at once (the client's share is free again); its addresses stay followed `followMs`
      // after, outside the shares and after every claim (so a client that reconnects resumes without a hole).
      const until = this.#now() + (this.#o.followMs ?? 60_000);
      void this.#o.bus
        .release(chainId, id)
        .then(() => this.#o.bus.follow(chainId, [...addresses], until))
        .catch(() => {});
    }, weight);
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
      id,
      chainId,
      addresses,
      fail: (e) => {
        queue.fail(e);
        pending = undefined;
        queue.wake();
      },
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
      const verdict = await this.#o.bus.claim(
        chainId,
        { id, client, addresses: [...addresses] },
        this.#now() + (this.#o.followMs ?? 60_000),
        this.#o.shares ?? UNBOUNDED,
      );
      if (!verdict.ok) throw new FollowShareError(verdict.reason, verdict.share);
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
    const claims = new Map<string, string[]>();
    for (const s of this.#subs) claims.set(s.chainId, [...(claims.get(s.chainId) ?? []), s.id]);
    for (const w of this.#icm) add(w.chainId, `${ICM_PREFIX}${w.messageId}`);
    const until = this.#now() + (this.#o.followMs ?? 60_000);
    for (const [chainId, set] of byChain) await this.#o.bus.follow(chainId, [...set], until);
    // A claim no longer held was given to another client (or lapsed): its subscriber is told.
    for (const [chainId, ids] of claims)
      this.#drop(chainId, await this.#o.bus.renew(chainId, ids, until));
  }

  #drop(chainId: string, ids: readonly string[]): void {
    if (ids.length === 0) return;
    const gone = new Set(ids);
    for (const s of this.#subs)
      if (s.chainId === chainId && gone.has(s.id)) s.fail(new FollowShareError('DROPPED', 0));
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
