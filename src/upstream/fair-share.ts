/**
 * The plan shared fairly among the clients spending it (docs/compute-units.md, "A fair share"). The rule
 * and its bookkeeping, in plain functions: the in-process ledger (cu-ledger.ts) calls them, and the Redis
 * ledger's Lua script (cu-ledger-redis.ts) is the same rule, line for line.
 *
 * Each payer's spending is kept per window in a ring of SLOTS slots (the minute: 10 s slots, the day:
 * 4 h slots), so one payer costs one small record whatever its traffic, and its spending over the last
 * 60-70 s (24-28 h) is a sum of 7 numbers. The plan's own totals stay exact (the 1 s / 1 h buckets).
 *
 * The rule, for each window with cap C: while the plan's total stays under `contention` x C nobody is
 * refused for fairness. Past it, each of the n clients active in the window (the asking one included)
 * may spend its share: the larger of
 * - its max-min fair share of the contended part, the level L at which the sum over clients of
 *   min(spent, L) fills `contention` x C (system work has its own share, outside it), and
 * - an equal share of the whole plan with a place kept for the next client to come, C / (n + 1).
 * A client whose spending would pass its share is refused; the others go on up to the cap itself. So a
 * client alone takes at most `contention` of the plan, and one heavy client never pushes the others,
 * within their shares, into RATE_LIMITED: its share is L, and L plus what they spend below it is
 * `contention` x C at most; or C / (n + 1), and n such shares fit in C. Equal weights: the gateway has
 * no tiers (a client is its address, or key and address).
 */
export const SLOTS = 7;
export const WINDOWS = {
  minute: { width: 10 },
  day: { width: 14_400 },
} as const;
export type Window = keyof typeof WINDOWS;

/** Who spends for work no client asked for (live readers, refreshes, webhook registration). */
export const SYSTEM_PAYER = '!system';
/** Where payers go once the ledger tracks `maxPayers` of them: they share one record. */
export const OVERFLOW_PAYER = '~overflow';
/** The longest payer id kept (identities are short; a longer one is cut). */
export const MAX_PAYER_LENGTH = 80;

/** A payer's ring: `[lastSlot, c0 … c6]`, c6 being slot `lastSlot`, c0 the oldest. */
export type Ring = number[];

export const emptyRing = (cur: number): Ring => [cur, 0, 0, 0, 0, 0, 0, 0];

/** What the ring holds within the window that ends at slot `cur`. */
export function ringUsed(r: Ring, cur: number): number {
  const shift = Math.max(0, cur - r[0]!);
  let used = 0;
  for (let i = shift; i < SLOTS; i++) used += r[i + 1]!;
  return used;
}

/** The ring moved on to slot `cur`, with `cu` added to it. */
export function ringAdd(r: Ring, cur: number, cu: number): Ring {
  const shift = Math.max(0, cur - r[0]!);
  const next = emptyRing(Math.max(cur, r[0]!));
  for (let i = 0; i + shift < SLOTS; i++) next[i + 1] = r[i + shift + 1]!;
  next[SLOTS] = next[SLOTS]! + cu;
  return next;
}

/** Seconds until `excess` of the ring's spending has left the window (the window's length if never). */
export function ringWait(r: Ring, cur: number, excess: number, width: number, nowSec: number) {
  const shift = Math.max(0, cur - r[0]!);
  let freed = 0;
  for (let i = shift; i < SLOTS; i++) {
    freed += r[i + 1]!;
    if (freed >= excess) {
      const slot = r[0]! - SLOTS + 1 + i;
      return Math.max(1, (slot + SLOTS) * width - nowSec);
    }
  }
  return SLOTS * width;
}

/**
 * The max-min fair level of `pool` among `spent` (each active client's spending, the asking one's
 * included): the L at which the sum of min(spent, L) is `pool`; Infinity when all of it fits.
 */
export function fairLevel(spent: number[], pool: number): number {
  const sorted = [...spent].sort((a, b) => a - b);
  let left = Math.max(0, pool);
  for (let i = 0; i < sorted.length; i++) {
    const each = left / (sorted.length - i);
    if (sorted[i]! >= each) return each;
    left -= sorted[i]!;
  }
  return Number.POSITIVE_INFINITY;
}

/** The fair-share settings of a ledger (GovernorOptions says what each means). */
export interface FairShare {
  /** The share of each cap past which the plan counts as contended. @default 0.5 */
  contention: number;
  /** Payers tracked per window; more share one record. @default 1000 */
  maxPayers: number;
}

export const DEFAULT_FAIR_SHARE: FairShare = { contention: 0.5, maxPayers: 1_000 };

/** A payer id as the ledger keeps it: bounded in length. */
export const payerKey = (payer: string): string =>
  payer.length > MAX_PAYER_LENGTH ? payer.slice(0, MAX_PAYER_LENGTH) : payer;
