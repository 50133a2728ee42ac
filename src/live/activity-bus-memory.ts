import type { ActivityBlock, ActivityEvent } from './activity.js';
import {
  type ActivityBus,
  DEFAULT_ACTIVITY_LOG,
  ordered,
  type WebhookDedupe,
  type WebhookOutcome,
} from './activity-bus.js';
import {
  admit,
  type Claim,
  type ClaimVerdict,
  interleave,
  type ShareLimits,
} from './follow-shares.js';

interface Held extends Claim {
  addresses: readonly string[];
  until: number;
}

/** One process, no Redis: the same contract in memory. */
export class MemoryActivityBus implements ActivityBus {
  readonly #log = new Map<string, ActivityBlock[]>();
  readonly #cursor = new Map<string, bigint>();
  readonly #follow = new Map<string, Map<string, number>>();
  readonly #listeners: ((b: ActivityBlock) => void)[] = [];
  readonly #dropped: ((chainId: string, ids: readonly string[]) => void)[] = [];
  readonly #claims = new Map<string, Map<string, Held>>();
  #seq = 0;
  readonly #seen = new Map<string, bigint>();
  readonly #messages = new Map<string, bigint>();
  constructor(
    readonly logSize = DEFAULT_ACTIVITY_LOG,
    readonly dedupe: WebhookDedupe = { window: 0, cap: 0 },
  ) {}

  /** Forgets transactions and message ids `window` blocks below `n` (a chain-qualified key). */
  #forget(chainId: string, below: bigint): void {
    for (const m of [this.#seen, this.#messages])
      for (const [k, n] of m) if (k.startsWith(`${chainId}:`) && n <= below) m.delete(k);
  }

  async publish(b: ActivityBlock): Promise<boolean> {
    const cur = this.#cursor.get(b.chainId);
    if (cur !== undefined && cur >= BigInt(b.number)) return false;
    this.#cursor.set(b.chainId, BigInt(b.number));
    if (this.dedupe.window > 0) {
      for (const e of b.events) this.#seen.set(`${b.chainId}:${e.txHash}`, BigInt(b.number));
      this.#forget(b.chainId, BigInt(b.number) - BigInt(this.dedupe.window));
    }
    const log = this.#log.get(b.chainId) ?? [];
    log.push(b);
    if (log.length > this.logSize) log.shift();
    this.#log.set(b.chainId, log);
    queueMicrotask(() => {
      for (const l of this.#listeners) l(b);
    });
    return true;
  }

  async publishWebhook(e: ActivityEvent, messageId: string, head: string): Promise<WebhookOutcome> {
    const n = BigInt(e.blockNumber);
    const cur = this.#cursor.get(e.chainId);
    const w = BigInt(Math.max(1, this.dedupe.window));
    if (cur !== undefined && n <= cur - w) return 'stale';
    if (cur !== undefined) this.#forget(e.chainId, cur - w);
    const msg = `${e.chainId}:${messageId}`;
    if (this.#messages.has(msg)) return 'replayed';
    this.#messages.set(msg, n);
    const tx = `${e.chainId}:${e.txHash}`;
    if (this.#seen.has(tx)) return 'duplicate';
    this.#seen.set(tx, n);
    const b: ActivityBlock = { chainId: e.chainId, number: e.blockNumber, head, events: [e] };
    b.webhook = true;
    queueMicrotask(() => {
      for (const l of this.#listeners) l(b);
    });
    return 'delivered';
  }

  async cursor(chainId: string) {
    return this.#cursor.get(chainId);
  }

  async since(chainId: string, after: bigint) {
    return ordered(this.#log.get(chainId) ?? [], after);
  }

  onBlock(listener: (b: ActivityBlock) => void): void {
    this.#listeners.push(listener);
  }

  async follow(chainId: string, addresses: readonly string[], untilMs: number): Promise<void> {
    const m = this.#follow.get(chainId) ?? new Map<string, number>();
    for (const a of addresses) m.set(a, Math.max(m.get(a) ?? 0, untilMs));
    this.#follow.set(chainId, m);
  }

  async followed(chainId: string, nowMs: number, max: number): Promise<string[]> {
    const m = this.#follow.get(chainId) ?? new Map<string, number>();
    for (const [a, until] of m) if (until < nowMs) m.delete(a);
    const byClient = new Map<string, string[]>();
    for (const c of this.#live(chainId, nowMs).values())
      byClient.set(c.client, [...(byClient.get(c.client) ?? []), ...c.addresses]);
    const claimed = interleave(byClient);
    const rest = [...m].sort((x, y) => y[1] - x[1]).map(([a]) => a);
    return [...new Set([...claimed, ...rest])].slice(0, max);
  }

  /** The chain's claims, the lapsed ones forgotten. */
  #live(chainId: string, nowMs: number): Map<string, Held> {
    const claims = this.#claims.get(chainId) ?? new Map<string, Held>();
    this.#claims.set(chainId, claims);
    for (const [id, c] of claims) if (c.until < nowMs) claims.delete(id);
    return claims;
  }

  async claim(
    chainId: string,
    want: { id: string; client: string; addresses: readonly string[] },
    untilMs: number,
    limits: ShareLimits,
  ): Promise<ClaimVerdict> {
    const claims = this.#live(chainId, Date.now());
    const count = want.addresses.length;
    const verdict = admit(
      [...claims.values()],
      { id: want.id, client: want.client, count },
      limits,
    );
    if (!verdict.ok) return verdict;
    for (const id of verdict.evict) claims.delete(id);
    claims.set(want.id, { ...want, count, seq: ++this.#seq, until: untilMs });
    if (verdict.evict.length > 0)
      queueMicrotask(() => {
        for (const l of this.#dropped) l(chainId, verdict.evict);
      });
    return verdict;
  }

  async renew(chainId: string, ids: readonly string[], untilMs: number): Promise<string[]> {
    const claims = this.#live(chainId, Date.now());
    const gone: string[] = [];
    for (const id of ids) {
      const c = claims.get(id);
      if (c) c.until = Math.max(c.until, untilMs);
      else gone.push(id);
    }
    return gone;
  }

  async release(chainId: string, id: string): Promise<void> {
    this.#claims.get(chainId)?.delete(id);
  }

  onDropped(listener: (chainId: string, ids: readonly string[]) => void): void {
    this.#dropped.push(listener);
  }

  async close(): Promise<void> {}
}
