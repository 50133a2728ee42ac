import { type CuLedger, createMemoryLedger, type LedgerCaps } from './cu-ledger.js';
import { retryAfterSec, UpstreamError, type UpstreamName } from './errors.js';
import type { UpstreamGate } from './http.js';

/**
 * The plan-wide governor: every attempt made with the operator's credential (the configured key, or
 * none) spends from one ledger shared by all replicas (src/upstream/cu-ledger.ts), so together they stay
 * within the plan's per-minute and per-day CUs and the upstream never has to answer 429. When it runs
 * short, in this order:
 * - work nobody waits for (a revalidation behind a stale answer, a refresh) yields first: it may only
 *   spend up to `backgroundShare` of each limit;
 * - a request's call is refused before it is sent (an `UpstreamBudgetError`, RATE_LIMITED): the cache
 *   serves a stale answer instead where it has one (stale-if-error, flagged in `extensions.cache`);
 * - with nothing stale, the request answers RATE_LIMITED with `retryAfterSec` and which budget ran out.
 * The upstream's own answers correct the ledger: `ratelimit-limit` lowers the per-minute cap (a plan
 * smaller than configured), a `ratelimit-remaining` below ours raises our count (someone else spends on
 * the key), and a 429 stops all spending until its `retry-after`.
 * A caller's own key spends the caller's plan, not ours: those calls are not governed here.
 */
export interface GovernorOptions {
  upstream: UpstreamName;
  perMinute: number;
  perDay: number;
  /** Shared by replicas (Redis); @default in-process */
  ledger?: CuLedger;
  /** The share of each limit work nobody waits for may spend. @default 0.8 */
  backgroundShare?: number;
  /** Told each refusal: which budget, and whether the call was background work. */
  onRefuse?: (budget: string, background: boolean) => void;
}

/** Which budget refused a call, as clients see it in `extensions.budget`. */
const BUDGET_NAMES = {
  minute: 'upstream-per-minute',
  day: 'upstream-per-day',
  upstream: 'upstream-rate-limit',
} as const;

/** A call the plan's budget refused before it was sent (RATE_LIMITED; a stale answer beats it). */
export class UpstreamBudgetError extends UpstreamError {
  readonly extensions: { budget: string };
  /** Never sent (the metrics of upstream outcomes count it as `refused`). */
  readonly notSent = true;
  constructor(upstream: UpstreamName, budget: string, retryAfter: number) {
    super(upstream, 'status', {
      status: 429,
      retryAfterSec: retryAfter,
      upstreamMessage: `the gateway's ${budget} compute-unit budget is spent`,
      ownWords: true,
    });
    this.extensions = { budget };
  }

  override toExtensions(): Record<string, unknown> {
    // Nothing was sent: there is no upstream status to report.
    const { upstreamStatus: _, ...rest } = super.toExtensions();
    return rest;
  }
}

export function createGovernor(options: GovernorOptions): UpstreamGate {
  const ledger = options.ledger ?? createMemoryLedger();
  // While the shared ledger cannot answer, each replica keeps its own count rather than none.
  const insurance = createMemoryLedger();
  const share = options.backgroundShare ?? 0.8;
  let perMinute = options.perMinute;
  let lastUsed = 0;
  const take = async (cu: number, caps: LedgerCaps) => {
    try {
      return await ledger.take(cu, caps);
    } catch {
      return insurance.take(cu, caps);
    }
  };
  const quietly = (p: Promise<void>) => p.catch(() => {});
  return {
    async take({ cu, background, credential }) {
      if (credential.kind !== 'operator' || cu <= 0) return;
      const caps = background
        ? { perMinute: Math.floor(perMinute * share), perDay: Math.floor(options.perDay * share) }
        : { perMinute, perDay: options.perDay };
      const verdict = await take(cu, caps);
      if (verdict.ok) {
        lastUsed = verdict.usedMinute;
        return;
      }
      const budget = BUDGET_NAMES[verdict.budget];
      options.onRefuse?.(budget, background);
      throw new UpstreamBudgetError(options.upstream, budget, verdict.retryAfterSec);
    },
    observe({ status, header, credential }) {
      if (credential.kind !== 'operator') return;
      if (status === 429) {
        const wait = retryAfterSec(header) ?? 1;
        void quietly(ledger.block(Math.max(1, wait) * 1000));
        return;
      }
      const limit = Number(header('ratelimit-limit'));
      const remaining = Number(header('ratelimit-remaining'));
      if (!Number.isFinite(limit) || !Number.isFinite(remaining) || limit <= 0) return;
      if (limit < perMinute) perMinute = limit;
      const used = limit - remaining;
      if (used > lastUsed) {
        lastUsed = used;
        void quietly(ledger.reconcile(used));
      }
    },
  };
}
