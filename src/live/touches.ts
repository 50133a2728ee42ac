import { LRUCache } from 'lru-cache';
import { bloomBits, LogsBloom, topicOfAddress } from './bloom.js';
import type { Head } from './head.js';

/**
 * Freshness by change for what belongs to one address (its balances, the first pages of its lists):
 * instead of the chain's head, such an entry is versioned by the last block that may have touched the
 * address, so it stays fresh while blocks pass it by. The version of an address at head H, over the
 * last `window` blocks (which must all be known, with their touches):
 * - `h<H>` (the head, as for any head entry) when the window is incomplete (a replica just started, a
 *   gap, a block seen as a header only);
 * - `t<b>` when block b, at least `lagBlocks` old, is the window's last such block that may have touched
 *   it (a transaction from or to it; a log naming it as emitter or indexed topic, by the header's bloom,
 *   which may say yes wrongly but never no wrongly; or a block too busy to tell);
 * - `e<E>` when no block of the window at least `lagBlocks` old touched it: E moves every `window`
 *   blocks (staggered per address, so untouched entries do not all expire at one head).
 * A touch younger than `lagBlocks` does not count yet: the Data API indexes behind the node, so an
 * answer read right after a touch may not show it, and reading it again at every head until it does
 * would pay up to `lagBlocks` calls per touch for answers the Data API had not changed. The entry
 * read before the touch is served meanwhile (the answer the Data API itself gives for that long), and
 * when the touch is `lagBlocks` old its version `t<b>` has the address read again, once.
 * So what no block shows (value sent by a contract to a plain address, a token changing balances without
 * logs, a price) is at most `window` blocks old, and an entry is refetched at most once per window
 * when nothing touches it. Every replica computes the same version from the same heads.
 */
export interface TouchOptions {
  /** Blocks an untouched entry may serve (its bounded age in blocks). */
  window: number;
  /** Blocks a touch waits before it counts (the Data API's indexing lag). */
  lagBlocks: number;
}

interface AddressBits {
  address: string;
  self: number[];
  topic: number[];
  /** The epoch offset of this address: untouched entries do not all expire at once. */
  stagger: bigint;
}

/** What the feed asks of address touches (a test may wrap it: the oracle plants a defect through it). */
export interface TouchVersions {
  readonly window: number;
  versionOf(recent: readonly Head[], address: string): string;
}

export class AddressTouches implements TouchVersions {
  readonly #o: TouchOptions;
  readonly #bits = new LRUCache<string, AddressBits>({ max: 20_000 });
  readonly #blooms = new WeakMap<Head, LogsBloom | undefined>();
  readonly #parties = new WeakMap<Head, ReadonlySet<string>>();

  constructor(options: TouchOptions) {
    this.#o = options;
  }

  get window(): number {
    return this.#o.window;
  }

  /** The version of `address` (lower-case 0x hex) at the newest of `recent` (ascending, contiguous or not). */
  versionOf(recent: readonly Head[], address: string): string {
    const head = recent[recent.length - 1];
    if (!head) return 'h?';
    const H = BigInt(head.number);
    const W = this.#o.window;
    const a = this.#addressBits(address);
    // Newest first, each one the previous number minus one, down to the window's first block.
    let expected = H;
    for (let i = recent.length - 1; i >= 0 && expected > H - BigInt(W); i--) {
      const h = recent[i]!;
      const n = BigInt(h.number);
      if (n > expected) continue;
      if (n < expected || h.touch === undefined) return `h${H}`;
      // A touch the Data API may not have indexed yet does not count until it may have: the entry
      // read before it is kept meanwhile, and the first read after the lag shows it.
      if (H - n >= BigInt(this.#o.lagBlocks) && this.#touches(h, a)) return `t${n}`;
      expected = n - 1n;
    }
    if (expected > H - BigInt(W)) return `h${H}`;
    return `e${(H + a.stagger) / BigInt(W)}`;
  }

  #touches(h: Head, a: AddressBits): boolean {
    const t = h.touch;
    if (t === undefined || t === 'all') return true;
    let parties = this.#parties.get(h);
    if (!parties) {
      parties = new Set(t.addresses);
      this.#parties.set(h, parties);
    }
    if (parties.has(a.address)) return true;
    let bloom = this.#blooms.get(h);
    if (!this.#blooms.has(h)) {
      bloom = LogsBloom.of(t.bloom);
      this.#blooms.set(h, bloom);
    }
    return bloom === undefined || bloom.hasBits(a.self) || bloom.hasBits(a.topic);
  }

  #addressBits(address: string): AddressBits {
    let bits = this.#bits.get(address);
    if (!bits) {
      const self = bloomBits(address);
      bits = {
        address,
        self,
        topic: bloomBits(topicOfAddress(address)),
        stagger: BigInt((self[0]! * 2048 + self[1]!) % this.#o.window),
      };
      this.#bits.set(address, bits);
    }
    return bits;
  }
}
