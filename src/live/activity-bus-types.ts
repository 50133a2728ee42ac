import type { ActivityBlock, ActivityEvent } from './activity.js';
import type { ClaimVerdict, ShareLimits } from './follow-shares.js';

/**
 * Where address activity meets across replicas. The holder of a chain's socket publishes each block's
 * activity once, in order: `publish` is atomic and refuses a block at or below the chain's activity
 * cursor (two replicas that both lead for a moment never repeat one). The last `logSize` blocks are kept
 * (the resumable log); the followed addresses are a sorted set scored by when their interest expires, so
 * the holder reads the union every replica wants without anyone keeping a list of replicas.
 */
export interface ActivityBus {
  publish(block: ActivityBlock): Promise<boolean>;
  /**
   * A transaction's event from the Data API's webhook (message `messageId`): published to every replica
   * unless the node (or an earlier message) already published that transaction, the message was seen
   * before, or its block is `window` blocks or more below the activity cursor.
   */
  publishWebhook(event: ActivityEvent, messageId: string, head: string): Promise<WebhookOutcome>;
  /** The last block whose activity was published, or undefined. */
  cursor(chainId: string): Promise<bigint | undefined>;
  /** Logged blocks above `after`, ascending, and the oldest block the log still holds. */
  since(chainId: string, after: bigint): Promise<{ blocks: ActivityBlock[]; oldest?: bigint }>;
  onBlock(listener: (b: ActivityBlock) => void): void;
  /** Keeps `addresses` followed on `chainId` until `untilMs` (epoch ms). */
  follow(chainId: string, addresses: readonly string[], untilMs: number): Promise<void>;
  /**
   * The addresses followed now: every admitted claim's, interleaved across clients (a prefix is a fair
   * share), then what `follow` keeps (ICM message ids); at most `max`.
   */
  followed(chainId: string, nowMs: number, max: number): Promise<string[]>;
  /**
   * A subscription claims its addresses on `chainId` until `untilMs`, within its client's share
   * (src/live/follow-shares.ts): refused, or admitted with the claims it displaced (already dropped, and
   * announced to every replica's `onDropped`).
   */
  claim(
    chainId: string,
    want: { id: string; client: string; addresses: readonly string[] },
    untilMs: number,
    limits: ShareLimits,
  ): Promise<ClaimVerdict>;
  /** Keeps the claims `ids` until `untilMs`; answers those no longer held (dropped or lapsed). */
  renew(chainId: string, ids: readonly string[], untilMs: number): Promise<string[]>;
  release(chainId: string, id: string): Promise<void>;
  /** Claims dropped to make room for others, on any replica. */
  onDropped(listener: (chainId: string, ids: readonly string[]) => void): void;
  close(): Promise<void>;
}

export type WebhookOutcome = 'delivered' | 'duplicate' | 'replayed' | 'stale';

/** Webhook deduplication: blocks a transaction and a message id are remembered (0: webhooks off). */
export interface WebhookDedupe {
  window: number;
  /** Most transactions and message ids remembered per chain; above it the oldest go, and their blocks are refused. */
  cap: number;
}
