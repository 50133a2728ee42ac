import type { HeadBus } from './bus.js';
import { type Head, headOf } from './head.js';
import { openRpcSocket, type RpcSocket } from './rpc-socket.js';

/**
 * The upstream side of one chain's feed: the replica holding the chain's lock opens the node's websocket,
 * subscribes to `newHeads` and publishes every block through the bus, in order. After a reconnect (with
 * backoff) or a takeover it resumes from the last head published by anyone: the blocks in between are
 * read with `eth_getBlockByNumber` over the same socket first, so no head is lost; the bus refuses a
 * number it already has, so none is repeated. Losing the lock (a missed renewal) closes the socket.
 */
export interface HeadSourceOptions {
  chainId: string;
  url: string;
  bus: HeadBus;
  owner: string;
  /** Lock lifetime; renewed every third of it. A dead holder is replaced within about this time. */
  lockTtlMs: number;
  /** Longest backfill after a gap (blocks); older ones are skipped, and the gap is logged. */
  maxBackfill: number;
  now: () => number;
  log: (level: 'info' | 'warn', message: string) => void;
  /** Told when this replica's upstream socket opens (+1) and closes (-1). */
  onSocket?: (delta: 1 | -1) => void;
  /**
   * Runs after each catch-up with the head reached, on the same socket (address activity), with the
   * blocks this catch-up read (with their transactions; the last `HANDED_BLOCKS`, by decimal number), so
   * they are not read twice.
   */
  afterHeads?: (
    head: bigint,
    socket: RpcSocket,
    blocks: ReadonlyMap<string, unknown>,
  ) => Promise<void>;
  /** The last head this replica delivered: the floor of a catch-up when the bus lost its own (Redis restarted empty). */
  lastKnown?: () => Head | undefined;
}

/** Waits `ms`, or less when `signal` aborts first. */
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    timer.unref();
    signal.addEventListener('abort', done, { once: true });
  });
const toHex = (n: bigint) => `0x${n.toString(16)}`;
/** The most blocks one catch-up hands to `afterHeads` (a long backfill's older ones are read again there). */
export const HANDED_BLOCKS = 16;

export class HeadSource {
  readonly #o: HeadSourceOptions;
  #stopped = false;
  /** Aborted by stop: ends a wait between attempts and a websocket still opening. */
  readonly #stopping = new AbortController();
  #socket: RpcSocket | undefined;
  #failures = 0;
  #done: Promise<void> = Promise.resolve();

  constructor(options: HeadSourceOptions) {
    this.#o = options;
  }

  start(): void {
    this.#done = this.#run();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#stopping.abort();
    this.#socket?.close();
    await this.#done;
    await this.#o.bus.unlock(this.#o.chainId, this.#o.owner).catch(() => {});
  }

  async #run(): Promise<void> {
    const renewMs = Math.max(50, Math.floor(this.#o.lockTtlMs / 3));
    while (!this.#stopped) {
      const held = await this.#o.bus
        .lock(this.#o.chainId, this.#o.owner, this.#o.lockTtlMs)
        .catch(() => false);
      if (!held) {
        await sleep(renewMs, this.#stopping.signal);
        continue;
      }
      await this.#lead(renewMs);
      if (this.#stopped) break;
      // Backoff with jitter: 100 ms doubling to 5 s; a session that delivered heads resets it.
      const wait = Math.min(5_000, 100 * 2 ** Math.min(this.#failures, 6));
      this.#failures += 1;
      await sleep(wait / 2 + Math.random() * (wait / 2), this.#stopping.signal);
    }
  }

  async #lead(renewMs: number): Promise<void> {
    const { chainId, bus, owner } = this.#o;
    let queue: Promise<void> = Promise.resolve();
    const enqueue = (n: bigint) => {
      queue = queue
        .then(() => this.#catchUp(n))
        .catch((e: Error) => this.#o.log('warn', `live ${chainId}: head ${n}: ${e.message}`));
    };
    let socket: RpcSocket;
    try {
      socket = await openRpcSocket(
        this.#o.url,
        (_sub, result) => {
          const h = headOf(chainId, result, this.#o.now());
          if (h) enqueue(BigInt(h.number));
        },
        undefined,
        this.#stopping.signal,
      );
    } catch (e) {
      if (!this.#stopped)
        this.#o.log('warn', `live ${chainId}: websocket failed to open (${(e as Error).message})`);
      return;
    }
    // Stopped while the socket opened: it is not followed.
    if (this.#stopped) {
      socket.close();
      return;
    }
    this.#socket = socket;
    this.#o.onSocket?.(1);
    const renew = setInterval(() => {
      void bus.lock(chainId, owner, this.#o.lockTtlMs).then(
        (held) => (held ? bus.beat(chainId) : socket.close()),
        () => socket.close(),
      );
    }, renewMs);
    try {
      const id = await socket.request('eth_chainId');
      if (typeof id !== 'string' || BigInt(id).toString() !== chainId) {
        this.#o.log(
          'warn',
          `live ${chainId}: the node at the websocket serves chain ${String(id)}; not following it`,
        );
        socket.close();
      } else {
        await socket.request('eth_subscribe', ['newHeads']);
        await bus.beat(chainId);
        // What may have landed while no one was connected: up to the node's current head.
        enqueue(BigInt(String(await socket.request('eth_blockNumber'))));
        this.#o.log('info', `live ${chainId}: following the node's heads`);
      }
    } catch (e) {
      this.#o.log('warn', `live ${chainId}: websocket set-up failed (${(e as Error).message})`);
      socket.close();
    }
    await socket.closed;
    clearInterval(renew);
    this.#socket = undefined;
    this.#o.onSocket?.(-1);
    await queue;
  }

  /** Publishes every block after the last published one up to `n`, in order. */
  async #catchUp(n: bigint): Promise<void> {
    const { chainId, bus } = this.#o;
    const socket = this.#socket;
    if (!socket) return;
    const fromBus = await bus.last(chainId);
    const known = this.#o.lastKnown?.();
    const last =
      known && (!fromBus || BigInt(known.number) > BigInt(fromBus.number)) ? known : fromBus;
    let from = last ? BigInt(last.number) + 1n : n;
    if (n - from >= BigInt(this.#o.maxBackfill)) {
      this.#o.log(
        'warn',
        `live ${chainId}: ${n - from} blocks behind; backfilling only the last ${this.#o.maxBackfill}`,
      );
      from = n - BigInt(this.#o.maxBackfill) + 1n;
    }
    // One read per block, with its transactions (the same price as the header alone): the head, and
    // the activity reader's block.
    const blocks = new Map<string, unknown>();
    for (let k = from; k <= n; k++) {
      const raw = await socket.request('eth_getBlockByNumber', [toHex(k), true]);
      const head: Head | undefined = headOf(chainId, raw, this.#o.now());
      if (!head) throw new Error(`block ${k} unreadable`);
      await bus.publish(head);
      this.#failures = 0;
      blocks.set(k.toString(), raw);
      if (blocks.size > HANDED_BLOCKS) blocks.delete((k - BigInt(HANDED_BLOCKS)).toString());
    }
    await this.#o.afterHeads?.(n, socket, blocks);
  }
}
