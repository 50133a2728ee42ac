import { randomUUID } from 'node:crypto';
import type { HeadBus } from './bus.js';
import type { Head } from './head.js';
import { HeadSource } from './head-source.js';
import type { RpcSocket } from './rpc-socket.js';
import { SubscriberQueue } from './subscriber-queue.js';
import type { TouchVersions } from './touches.js';

/**
 * A replica's view of the chains' heads. Every replica listens to the bus; each chain's upstream socket is
 * held by one of them (HeadSource). Heads reach local subscribers in order and once: a duplicate is
 * ignored and a gap (a missed pub/sub message) is filled from the bus's recent heads first. A subscriber
 * that lets `queueMax` events pile up is ended with `SlowConsumerError` (never buffered without bound).
 *
 * A chain is `live` while its socket holder's beats arrive (within `liveWindowMs`): then its head-class
 * cache entries carry the head they were answered at (`headTag`, the entry's version), so a new head
 * makes them stale at once and they are not refetched between heads. Otherwise the class TTL applies as without a websocket.
 */
export interface LiveFeedOptions {
  chains: readonly { chainId: string; url: string }[];
  bus: HeadBus;
  now?: () => number;
  lockTtlMs?: number;
  liveWindowMs?: number;
  queueMax?: number;
  maxBackfill?: number;
  log?: (level: 'info' | 'warn', message: string) => void;
  /** Told when this replica's upstream socket for `chainId` opens (+1) and closes (-1). */
  onSocket?: (delta: 1 | -1, chainId: string) => void;
  /**
   * Freshness by change for address-scoped entries (src/live/touches.ts; LIVE_ADDRESS_FRESHNESS=touch,
   * the default); omitted: every head entry follows the head.
   */
  touches?: TouchVersions;
  /** Given to each chain's HeadSource: what the holder does after publishing heads (activity). */
  afterHeads?: (
    chainId: string,
    head: bigint,
    socket: RpcSocket,
    blocks: ReadonlyMap<string, unknown>,
  ) => Promise<void>;
}

export class SlowConsumerError extends Error {
  override name = 'SlowConsumerError';
}

interface Subscriber {
  chainId: string;
  push(h: Head): void;
}

export class LiveFeed {
  readonly owner = randomUUID();
  readonly #o: LiveFeedOptions;
  readonly #now: () => number;
  readonly #heads = new Map<string, Head>();
  readonly #recent = new Map<string, Head[]>();
  readonly #beats = new Map<string, number>();
  readonly #subs = new Set<Subscriber>();
  readonly #sources: HeadSource[];
  readonly #order = new Map<string, Promise<void>>();
  /** When each chain's last head was last compared with the bus's, and the comparisons running. */
  readonly #lastChecked = new Map<string, number>();
  readonly #checking = new Set<string>();

  constructor(options: LiveFeedOptions) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
    const log = options.log ?? (() => {});
    this.#sources = options.chains.map(
      (c) =>
        new HeadSource({
          ...c,
          bus: options.bus,
          owner: this.owner,
          lockTtlMs: options.lockTtlMs ?? 3_000,
          maxBackfill: options.maxBackfill ?? 256,
          now: this.#now,
          log,
          onSocket: options.onSocket && ((d) => options.onSocket!(d, c.chainId)),
          afterHeads:
            options.afterHeads &&
            ((n, socket, blocks) => options.afterHeads!(c.chainId, n, socket, blocks)),
          lastKnown: () => this.#heads.get(c.chainId),
        }),
    );
    options.bus.onHead((h) => this.#receive(h));
    options.bus.onBeat((chainId) => {
      this.#beats.set(chainId, this.#now());
      this.#checkLast(chainId);
    });
  }

  /**
   * A replica reads the bus's last head at start, and then hears new heads as pub/sub messages. A head
   * published between the two (its subscription was not up yet) would be missed until the next block,
   * and a chain that stays at that head would have no head here at all. So on the holder's beats it
   * compares with the bus's last head: at once when it knows none, else at most once per live window
   * (one read per chain every few seconds); a newer one is received as if it had been published.
   */
  #checkLast(chainId: string): void {
    const now = this.#now();
    const known = this.#heads.has(chainId);
    const at = this.#lastChecked.get(chainId);
    if (this.#checking.has(chainId)) return;
    if (known && at !== undefined && now - at < (this.#o.liveWindowMs ?? 3_500)) return;
    this.#lastChecked.set(chainId, now);
    this.#checking.add(chainId);
    void this.#o.bus
      .last(chainId)
      .then((h) => {
        const cur = this.#heads.get(chainId);
        if (h && (!cur || BigInt(h.number) > BigInt(cur.number))) this.#receive(h);
      })
      .catch(() => undefined)
      .finally(() => this.#checking.delete(chainId));
  }

  /** Reads each chain's last head, then starts competing for the upstream sockets. */
  async start(): Promise<void> {
    await Promise.all(
      this.#o.chains.map(async (c) => {
        const h = await this.#o.bus.last(c.chainId).catch(() => undefined);
        if (!h || this.#heads.has(c.chainId)) return;
        // The heads the bus keeps before it, with their touches: a replica that starts (or scales out)
        // has the touch window at once instead of following every head until it has seen the window.
        const keep = this.#keep();
        const earlier = await this.#o.bus
          .since(c.chainId, BigInt(h.number) - BigInt(keep))
          .catch(() => [] as Head[]);
        if (this.#heads.has(c.chainId)) return;
        this.#heads.set(c.chainId, h);
        const recent = earlier.filter((e) => BigInt(e.number) < BigInt(h.number));
        recent.push(h);
        this.#recent.set(c.chainId, recent.slice(-keep));
      }),
    );
    for (const s of this.#sources) s.start();
  }

  async stop(): Promise<void> {
    await Promise.all(this.#sources.map((s) => s.stop()));
    await this.#o.bus.close();
  }

  configured(chainId: string): boolean {
    return this.#o.chains.some((c) => c.chainId === chainId);
  }

  head(chainId: string): Head | undefined {
    return this.#heads.get(chainId);
  }

  /** The version of a chain's head-class entries while the chain is live; undefined otherwise. */
  headTag(chainId: string): string | undefined {
    const beat = this.#beats.get(chainId);
    const head = this.#heads.get(chainId);
    if (!head || beat === undefined || this.#now() - beat > (this.#o.liveWindowMs ?? 3_500))
      return undefined;
    return `h${head.number}`;
  }

  /**
   * The version of an address's head entries while the chain is live (src/live/touches.ts: the last
   * block that may have touched it, or the head itself); undefined when the chain is not live.
   */
  addressTag(chainId: string, address: string): string | undefined {
    const tag = this.headTag(chainId);
    const touches = this.#o.touches;
    if (!tag || !touches) return tag;
    return touches.versionOf(this.#recent.get(chainId) ?? [], address);
  }

  /** A recent head of a chain by its number (decimal) or hash (lower-case 0x hex), if this replica has it. */
  recentHead(chainId: string, id: string): Head | undefined {
    return this.#recent.get(chainId)?.find((h) => h.number === id || h.hash === id);
  }

  /** `{ chainId, height, ageMs }` of a recent head of a chain (ageMs: since the feed saw it). */
  headAt(
    chainId: string,
    height: string,
  ): { chainId: string; height: string; ageMs: number } | undefined {
    const h = this.#recent.get(chainId)?.find((r) => r.number === height);
    return h ? { chainId, height, ageMs: Math.max(0, this.#now() - h.seenAt) } : undefined;
  }

  /**
   * Heads of `chainId` numbered above `after` that the bus keeps, and this replica's own recent ones (the
   * bus may have lost its list: Redis restarted empty), ascending, once each (resumption: src/live/resume.ts).
   */
  async since(chainId: string, after: bigint): Promise<Head[]> {
    const byNumber = new Map<string, Head>();
    for (const h of this.#recent.get(chainId) ?? [])
      if (BigInt(h.number) > after) byNumber.set(h.number, h);
    for (const h of await this.#o.bus.since(chainId, after)) byNumber.set(h.number, h);
    return [...byNumber.values()].sort((a, b) => (BigInt(a.number) < BigInt(b.number) ? -1 : 1));
  }

  /** `{ chainId, height, ageMs }` of every chain with a known head (ageMs: since the feed saw it). */
  heads(): { chainId: string; height: string; ageMs: number }[] {
    return [...this.#heads.values()].map((h) => ({
      chainId: h.chainId,
      height: h.number,
      ageMs: Math.max(0, this.#now() - h.seenAt),
    }));
  }

  /** Heads of `chainId` from now on, in order. Ends with SlowConsumerError past `queueMax` unread heads. */
  subscribe(chainId: string): AsyncIterableIterator<Head> {
    const max = this.#o.queueMax ?? 256;
    const queue = new SubscriberQueue<Head>(() => this.#subs.delete(sub));
    const sub: Subscriber = {
      chainId,
      push: (h) => {
        if (queue.closed) return;
        if (queue.held >= max) queue.fail(new SlowConsumerError(`more than ${max} heads unread`));
        else queue.push(h);
      },
    };
    this.#subs.add(sub);
    return queue;
  }

  subscriberCount(): number {
    return this.#subs.size;
  }

  /** Recent heads kept per chain: the touch window and the head before it, at least 32. */
  #keep(): number {
    return Math.max(32, (this.#o.touches?.window ?? 0) + 1);
  }

  #receive(h: Head): void {
    // Per chain, in arrival order: a gap is filled before the head that revealed it is delivered.
    const prev = this.#order.get(h.chainId) ?? Promise.resolve();
    const next = prev.then(() => this.#deliverInOrder(h)).catch(() => {});
    this.#order.set(h.chainId, next);
  }

  async #deliverInOrder(h: Head): Promise<void> {
    const cur = this.#heads.get(h.chainId);
    const n = BigInt(h.number);
    if (cur && n <= BigInt(cur.number)) return;
    if (cur && n > BigInt(cur.number) + 1n) {
      const missed = await this.#o.bus
        .since(h.chainId, BigInt(cur.number))
        .catch(() => [] as Head[]);
      for (const m of missed) if (BigInt(m.number) < n) this.#deliver(m);
    }
    this.#deliver(h);
  }

  #deliver(h: Head): void {
    const cur = this.#heads.get(h.chainId);
    if (cur && BigInt(h.number) <= BigInt(cur.number)) return;
    this.#heads.set(h.chainId, h);
    const recent = this.#recent.get(h.chainId) ?? [];
    recent.push(h);
    if (recent.length > this.#keep()) recent.shift();
    this.#recent.set(h.chainId, recent);
    this.#beats.set(h.chainId, this.#now());
    for (const s of this.#subs) if (s.chainId === h.chainId) s.push(h);
  }
}
