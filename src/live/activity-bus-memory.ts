import type { ActivityBlock, ActivityEvent } from './activity.js';
import {
  type ActivityBus,
  DEFAULT_ACTIVITY_LOG,
  ordered,
  type WebhookDedupe,
  type WebhookOutcome,
} from './activity-bus.js';

/** One process, no Redis: the same contract in memory. */
export class MemoryActivityBus implements ActivityBus {
  readonly #log = new Map<string, ActivityBlock[]>();
  readonly #cursor = new Map<string, bigint>();
  readonly #follow = new Map<string, Map<string, number>>();
  readonly #listeners: ((b: ActivityBlock) => void)[] = [];
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
    return [...m]
      .sort((x, y) => y[1] - x[1])
      .slice(0, max)
      .map(([a]) => a);
  }

  async close(): Promise<void> {}
}
