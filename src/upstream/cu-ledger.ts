import {
  DEFAULT_FAIR_SHARE,
  emptyRing,
  type FairShare,
  fairLevel,
  OVERFLOW_PAYER,
  payerKey,
  type Ring,
  ringAdd,
  ringUsed,
  ringWait,
  SYSTEM_PAYER,
  WINDOWS,
  type Window,
} from './fair-share.js';

/**
 * The plan's spending, shared by every replica: CUs per second over the last minute and per hour over
 * the last day, checked and added in one step (a Lua script in Redis, cu-ledger-redis.ts; in-process
 * without Redis), and each payer's own spending, for the plan's fair share (fair-share.ts).
 *
 * Why buckets, not rate-limiter-flexible's fixed windows: a fixed window starts at its first use, so
 * two of ours can fall inside one upstream window and together spend twice its limit. Checking the sum
 * of the 61 one-second buckets that touch the last minute before every spend bounds what ANY 60 s span
 * holds, however the upstream aligns its windows (likewise the 25 hours that touch the last day).
 */
export interface LedgerCaps {
  perMinute: number;
  perDay: number;
}

export interface LedgerSpend {
  cu: number;
  /** The plan's caps for this spend (smaller for work that yields). */
  caps: LedgerCaps;
  /** Who pays: a client's identity, or SYSTEM_PAYER for work no client asked for. */
  payer: string;
  /** Caps on this payer's own spending (the system share); none for a client. */
  own?: LedgerCaps;
  /** When a client is held to its fair share. @default DEFAULT_FAIR_SHARE */
  fair?: FairShare;
}

/**
 * `minute` / `day`: the plan's cap; `upstream`: the upstream said stop; `share-*`: this client's fair
 * share of a contended plan; `own-*`: the payer's own cap (the system share).
 */
export type LedgerBudget =
  | 'minute'
  | 'day'
  | 'upstream'
  | 'share-minute'
  | 'share-day'
  | 'own-minute'
  | 'own-day';

export type LedgerVerdict =
  | { ok: true; usedMinute: number }
  | { ok: false; budget: LedgerBudget; retryAfterSec: number };

export interface CuLedger {
  /** Spends `cu` if the plan's caps, the payer's fair share and its own caps allow; else says which and when. */
  take(spend: LedgerSpend): Promise<LedgerVerdict>;
  /** Raises the last minute's count to `used` (the upstream counted more: someone else spends too). */
  reconcile(used: number): Promise<void>;
  /** Spends nothing for `ms` (the upstream answered 429 or said its window is spent). */
  block(ms: number): Promise<void>;
}

const MINUTE_SPAN = 60;
const DAY_SPAN = 24;

/** Seconds until enough of the oldest buckets leave the window for `cu` to fit under `cap`. */
function waitFor(
  buckets: [number, number][],
  used: number,
  cu: number,
  cap: number,
  span: number,
  width: number,
  nowSec: number,
): number {
  buckets.sort((a, b) => a[0] - b[0]);
  let left = used;
  for (const [b, n] of buckets) {
    left -= n;
    if (left + cu <= cap) return Math.max(1, (b + span + 1) * width - nowSec);
  }
  return span * width;
}

export function createMemoryLedger(now: () => number = Date.now): CuLedger {
  const minute = new Map<number, number>();
  const day = new Map<number, number>();
  const rings: Record<Window, Map<string, Ring>> = { minute: new Map(), day: new Map() };
  let blockedUntil = 0;
  const sum = (m: Map<number, number>, oldest: number): number => {
    let used = 0;
    for (const [b, n] of m) {
      if (b < oldest) m.delete(b);
      else used += n;
    }
    return used;
  };
  /** The record `payer` is kept under: its own, or the shared overflow once `maxPayers` are kept. */
  const tracked = (m: Map<string, Ring>, payer: string, cur: number, max: number): string => {
    if (m.has(payer) || m.size < max || payer === SYSTEM_PAYER) return payer;
    for (const [k, r] of m) if (ringUsed(r, cur) === 0) m.delete(k);
    return m.size < max ? payer : OVERFLOW_PAYER;
  };
  /** The refusal the fair share (or the payer's own cap) gives in window `w`, if any. */
  const judge = (
    w: Window,
    spend: LedgerSpend,
    id: string,
    total: number,
    sec: number,
  ): LedgerVerdict | undefined => {
    const { cu } = spend;
    const cap = w === 'minute' ? spend.caps.perMinute : spend.caps.perDay;
    const { width } = WINDOWS[w];
    const cur = Math.floor(sec / width);
    const m = rings[w];
    const ring = m.get(id) ?? emptyRing(cur);
    const used = ringUsed(ring, cur);
    if (id === SYSTEM_PAYER) {
      const own = w === 'minute' ? spend.own?.perMinute : spend.own?.perDay;
      if (own === undefined || used + cu <= own) return undefined;
      return {
        ok: false,
        budget: `own-${w}`,
        retryAfterSec: ringWait(ring, cur, used + cu - own, width, sec),
      };
    }
    const contended = (spend.fair ?? DEFAULT_FAIR_SHARE).contention * cap;
    if (total + cu <= contended) return undefined;
    const spent = [used + cu];
    for (const [k, r] of m) {
      if (k === id) continue;
      const u = ringUsed(r, cur);
      if (u === 0) m.delete(k);
      else if (k !== SYSTEM_PAYER) spent.push(u);
    }
    const level = Math.max(fairLevel(spent, contended), cap / (spent.length + 1));
    if (used + cu <= level) return undefined;
    // When enough of its own spending has left the window, or the plan is no longer contended.
    const [buckets, span, bucket] =
      w === 'minute' ? [[...minute], MINUTE_SPAN, 1] : [[...day], DAY_SPAN, 3600];
    return {
      ok: false,
      budget: `share-${w}`,
      retryAfterSec: Math.min(
        ringWait(ring, cur, used + cu - level, width, sec),
        waitFor(buckets, total, cu, contended, span, bucket, sec),
      ),
    };
  };
  return {
    async take(spend) {
      const { cu, caps } = spend;
      const ms = now();
      if (ms < blockedUntil)
        return {
          ok: false,
          budget: 'upstream',
          retryAfterSec: Math.ceil((blockedUntil - ms) / 1000),
        };
      const sec = Math.floor(ms / 1000);
      const hour = Math.floor(sec / 3600);
      const usedM = sum(minute, sec - MINUTE_SPAN);
      if (usedM + cu > caps.perMinute)
        return {
          ok: false,
          budget: 'minute',
          retryAfterSec: waitFor([...minute], usedM, cu, caps.perMinute, MINUTE_SPAN, 1, sec),
        };
      const usedD = sum(day, hour - DAY_SPAN);
      if (usedD + cu > caps.perDay)
        return {
          ok: false,
          budget: 'day',
          retryAfterSec: waitFor([...day], usedD, cu, caps.perDay, DAY_SPAN, 3600, sec),
        };
      const payer = payerKey(spend.payer);
      const curM = Math.floor(sec / WINDOWS.minute.width);
      const curD = Math.floor(sec / WINDOWS.day.width);
      const max = (spend.fair ?? DEFAULT_FAIR_SHARE).maxPayers;
      const idM = tracked(rings.minute, payer, curM, max);
      const idD = tracked(rings.day, payer, curD, max);
      const refused =
        judge('minute', spend, idM, usedM, sec) ?? judge('day', spend, idD, usedD, sec);
      if (refused) return refused;
      minute.set(sec, (minute.get(sec) ?? 0) + cu);
      day.set(hour, (day.get(hour) ?? 0) + cu);
      rings.minute.set(idM, ringAdd(rings.minute.get(idM) ?? emptyRing(curM), curM, cu));
      rings.day.set(idD, ringAdd(rings.day.get(idD) ?? emptyRing(curD), curD, cu));
      return { ok: true, usedMinute: usedM + cu };
    },
    async reconcile(used) {
      const sec = Math.floor(now() / 1000);
      const usedM = sum(minute, sec - MINUTE_SPAN);
      if (used > usedM) minute.set(sec, (minute.get(sec) ?? 0) + used - usedM);
    },
    async block(ms) {
      blockedUntil = Math.max(blockedUntil, now() + ms);
    },
  };
}
