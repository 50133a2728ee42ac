import {
  type CuLedger,
  createMemoryLedger,
  type LedgerBudget,
  type LedgerCaps,
} from './cu-ledger.js';
import { retryAfterSec, UpstreamError, type UpstreamName } from './errors.js';
import { DEFAULT_FAIR_SHARE, SYSTEM_PAYER } from './fair-share.js';
import type { UpstreamGate } from './http.js';

/**
 * The plan-wide governor: every attempt made with the operator's credential (the configured key, or
 * none) spends from one ledger shared by all replicas (src/upstream/cu-ledger.ts), so together they stay
 * within the plan's per-minute and per-day CUs and the upstream never has to answer 429. When it runs
 * short, in this order:
 * - system work (a call made for no request: live readers, refreshes, revalidations, webhook
 *   registration) spends from its own share of the plan (`systemShare`) and yields first: it may only
 *   bring each window to `backgroundShare` of its cap;
 * - past `contention` of a cap, each client may spend its max-min fair share of the contended part
 *   (src/upstream/fair-share.ts): the client over it is refused, the others go on;
 * - a request's call is refused before it is sent (an `UpstreamBudgetError`, RATE_LIMITED): the cache
 *   serves a stale answer instead where it has one (stale-if-error, flagged in `extensions.cache`);
 * - with nothing stale, the request answers RATE_LIMITED with `retryAfterSec` and which budget ran out.
 * The upstream's own answers correct the ledger, within bounds (nothing an answer says holds for long):
 * `ratelimit-limit` lowers the per-minute cap to no less than `limitFloor` of the configured one, for
 * `limitHoldMs` after the last answer that said so; a `ratelimit-remaining` below ours raises our count
 * (someone else spends on the key) up to the cap; a 429 stops all spending for its `retry-after`, at
 * most `maxBlockSec`.
 * When the ledger does not answer (Redis down or too slow), the governor fails closed: nothing is sent
 * (RATE_LIMITED, `budget: upstream-ledger`), unless `fallbackShare` gives each replica that share of
 * the plan in an in-process ledger of its own (plan / replicas keeps the sum within the plan).
 * A caller's own key spends the caller's plan, not ours: those calls are not governed here.
 */
export interface GovernorOptions {
  upstream: UpstreamName;
  perMinute: number;
  perDay: number;
  /** Shared by replicas (Redis); @default in-process */
  ledger?: CuLedger;
  /** The share of each cap system work may bring the plan's total to. @default 0.8 */
  backgroundShare?: number;
  /** The share of each cap system work may spend itself. @default 0.25 */
  systemShare?: number;
  /** The share of each cap past which clients are held to their fair share. @default 0.5 */
  contention?: number;
  /** Clients the ledger tracks for their fair share, per window; more share one record. @default 1000 */
  maxPayers?: number;
  /** While the ledger fails: each replica's share of the plan, in-process; 0: refuse. @default 0 */
  fallbackShare?: number;
  /** The longest an upstream 429's `retry-after` stops spending, in seconds. @default 60 */
  maxBlockSec?: number;
  /** The least share of the configured minute the upstream's `ratelimit-limit` can lower it to. @default 0.5 */
  limitFloor?: number;
  /** How long a lowered cap holds after the last answer that said so. @default 300_000 */
  limitHoldMs?: number;
  /** Told each refusal: which budget, and whose work. */
  onRefuse?: (budget: string, work: Work) => void;
  /** Told each spend let through: how many CUs, and whose work. */
  onSpend?: (cu: number, work: Work) => void;
  /** @default Date.now */
  now?: () => number;
}

/** Whose work a call is: a request's, or the gateway's own (no request waits for it). */
export type Work = 'system' | 'request';

/** What holds the upstream back, for `/health`. */
export interface HeldBack {
  upstream: UpstreamName;
  /** `rate-limited`: the upstream answered 429; `limit-lowered`: its `ratelimit-limit` is below the plan. */
  reason: 'rate-limited' | 'limit-lowered';
  /** ISO time it ends (unless the upstream says so again). */
  until: string;
  /** The per-minute cap in force (limit-lowered). */
  perMinute?: number;
}

export interface Governor extends UpstreamGate {
  heldBack(): HeldBack[];
}

/** Which budget refused a call, as clients see it in `extensions.budget`. */
const BUDGET_NAMES: Record<LedgerBudget | 'ledger', string> = {
  minute: 'upstream-per-minute',
  day: 'upstream-per-day',
  upstream: 'upstream-rate-limit',
  'share-minute': 'fair-share-per-minute',
  'share-day': 'fair-share-per-day',
  'own-minute': 'system-share-per-minute',
  'own-day': 'system-share-per-day',
  ledger: 'upstream-ledger',
};

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

/** The payer of a request whose client is not known (no identity on its scope). */
const ANONYMOUS = 'anonymous';

export function createGovernor(options: GovernorOptions): Governor {
  const now = options.now ?? Date.now;
  const fair = {
    contention: options.contention ?? DEFAULT_FAIR_SHARE.contention,
    maxPayers: options.maxPayers ?? DEFAULT_FAIR_SHARE.maxPayers,
  };
  const ledger = options.ledger ?? createMemoryLedger(now);
  const fallbackShare = options.fallbackShare ?? 0;
  // While the shared ledger cannot answer, this replica's own count of its share (when it has one).
  const insurance = fallbackShare > 0 ? createMemoryLedger(now) : undefined;
  const share = options.backgroundShare ?? 0.8;
  const systemShare = options.systemShare ?? 0.25;
  const maxBlockSec = options.maxBlockSec ?? 60;
  const floor = Math.floor(options.perMinute * (options.limitFloor ?? 0.5));
  const holdMs = options.limitHoldMs ?? 300_000;
  // The upstream's word on its limit, held until `loweredUntil`.
  let lowered: number | undefined;
  let loweredUntil = 0;
  let blockedUntil = 0;
  let lastUsed = 0;
  const perMinute = () => {
    if (lowered !== undefined && now() >= loweredUntil) lowered = undefined;
    return lowered ?? options.perMinute;
  };
  const scaled = (caps: LedgerCaps, by: number): LedgerCaps => ({
    perMinute: Math.floor(caps.perMinute * by),
    perDay: Math.floor(caps.perDay * by),
  });
  const quietly = (p: Promise<void>) => p.catch(() => {});
  const refuse = (budget: string, work: Work, retryAfter: number): never => {
    options.onRefuse?.(budget, work);
    throw new UpstreamBudgetError(options.upstream, budget, retryAfter);
  };
  return {
    async take({ cu, background, credential, payer }) {
      if (credential.kind !== 'operator' || cu <= 0) return;
      const work: Work = background ? 'system' : 'request';
      const plan = { perMinute: perMinute(), perDay: options.perDay };
      const spend =
        work === 'system'
          ? {
              cu,
              caps: scaled(plan, share),
              payer: SYSTEM_PAYER,
              own: scaled(plan, systemShare),
              fair,
            }
          : { cu, caps: plan, payer: payer ?? ANONYMOUS, fair };
      let verdict: Awaited<ReturnType<CuLedger['take']>>;
      try {
        // Twice: a timeout can be this process's own lag (a reply that came while the event loop was
        // busy times out all the same). A spend counted by the first is counted twice: the plan's side.
        verdict = await ledger.take(spend).catch(() => ledger.take(spend));
      } catch {
        // Fail closed: a replica counting alone could spend what the others already spent.
        if (!insurance) return refuse(BUDGET_NAMES.ledger, work, 1);
        verdict = await insurance.take({
          ...spend,
          caps: scaled(spend.caps, fallbackShare),
          own: spend.own && scaled(spend.own, fallbackShare),
        });
      }
      if (verdict.ok) {
        lastUsed = verdict.usedMinute;
        options.onSpend?.(cu, work);
        return;
      }
      if (verdict.budget === 'upstream')
        blockedUntil = Math.max(blockedUntil, now() + verdict.retryAfterSec * 1000);
      return refuse(BUDGET_NAMES[verdict.budget], work, verdict.retryAfterSec);
    },
    observe({ status, header, credential }) {
      if (credential.kind !== 'operator') return;
      if (status === 429) {
        // Bounded: an answer saying "for ever" stops us for maxBlockSec, then the next 429 says it again.
        const wait = Math.min(maxBlockSec, Math.max(1, retryAfterSec(header) ?? 1));
        blockedUntil = Math.max(blockedUntil, now() + wait * 1000);
        void quietly(ledger.block(wait * 1000));
        return;
      }
      const limit = Number(header('ratelimit-limit'));
      const remaining = Number(header('ratelimit-remaining'));
      if (!Number.isFinite(limit) || !Number.isFinite(remaining) || limit <= 0) return;
      if (limit < options.perMinute) {
        lowered = Math.max(floor, Math.floor(limit));
        loweredUntil = now() + holdMs;
      } else lowered = undefined;
      // Never more than the cap: a made-up count stops us for one window at most.
      const used = Math.min(perMinute(), limit - Math.max(0, remaining));
      if (used > lastUsed) {
        lastUsed = used;
        void quietly(ledger.reconcile(used));
      }
    },
    heldBack() {
      const at = now();
      const held: HeldBack[] = [];
      if (blockedUntil > at)
        held.push({
          upstream: options.upstream,
          reason: 'rate-limited',
          until: new Date(blockedUntil).toISOString(),
        });
      const cap = perMinute();
      if (cap < options.perMinute)
        held.push({
          upstream: options.upstream,
          reason: 'limit-lowered',
          until: new Date(loweredUntil).toISOString(),
          perMinute: cap,
        });
      return held;
    },
  };
}
