/**
 * Each client's share of a chain's followed addresses. The set is bounded (the node's filters, the
 * webhook's registration): without shares, one client's subscriptions pushed every other client's
 * addresses out, and nothing told them. A subscription claims its addresses whole:
 * - one client holds at most `perClient` addresses on a chain (summed over its subscriptions);
 * - while the set has room, a claim within that is admitted;
 * - when it is full, the chain's room is divided max-min fairly among the clients that want it (each gets
 *   what it asks up to an equal level): a claim within its client's fair share is admitted and the newest
 *   subscriptions of the clients above theirs are dropped (and told) until it fits; a claim beyond it is
 *   refused, and its subscriber told at once.
 * Counting is by subscription (an address two subscriptions follow counts twice), so the union of admitted
 * claims never exceeds `capacity`.
 */
export interface Claim {
  id: string;
  client: string;
  /** Addresses claimed. */
  count: number;
  /** Order of admission (larger: newer). */
  seq: number;
}

export interface ShareLimits {
  /** Addresses followed on one chain at most. */
  capacity: number;
  /** Addresses one client may hold on one chain. */
  perClient: number;
}

export type ClaimVerdict =
  | { ok: true; evict: string[] }
  | { ok: false; reason: 'CLIENT_SHARE' | 'FAIR_SHARE'; share: number };

/** Max-min fair allocation of `capacity` among the demands (water-filling), in whole addresses. */
export function fairShares(demands: Map<string, number>, capacity: number): Map<string, number> {
  const out = new Map<string, number>();
  const sorted = [...demands].sort((a, b) => a[1] - b[1]);
  let room = capacity;
  for (let i = 0; i < sorted.length; i++) {
    const [client, want] = sorted[i]!;
    const level = Math.floor(room / (sorted.length - i));
    const got = Math.min(want, level);
    out.set(client, got);
    room -= got;
  }
  return out;
}

export function admit(
  held: readonly Claim[],
  want: Omit<Claim, 'seq'>,
  limits: ShareLimits,
): ClaimVerdict {
  const use = new Map<string, number>();
  let total = 0;
  for (const c of held) {
    use.set(c.client, (use.get(c.client) ?? 0) + c.count);
    total += c.count;
  }
  const own = (use.get(want.client) ?? 0) + want.count;
  if (own > limits.perClient) return { ok: false, reason: 'CLIENT_SHARE', share: limits.perClient };
  if (total + want.count <= limits.capacity) return { ok: true, evict: [] };
  use.set(want.client, own);
  const shares = fairShares(use, limits.capacity);
  const mine = shares.get(want.client) ?? 0;
  if (own > mine) return { ok: false, reason: 'FAIR_SHARE', share: mine };
  // Drop the newest subscriptions of whoever is furthest above its share until the claim fits.
  const newestFirst = [...held].sort((a, b) => b.seq - a.seq);
  const evict: string[] = [];
  total += want.count;
  while (total > limits.capacity) {
    let worst: string | undefined;
    let over = 0;
    for (const [client, n] of use) {
      const above = n - (shares.get(client) ?? 0);
      if (client !== want.client && above > over) [worst, over] = [client, above];
    }
    const victim = worst && newestFirst.find((c) => c.client === worst && !evict.includes(c.id));
    if (!victim) break;
    evict.push(victim.id);
    use.set(victim.client, (use.get(victim.client) ?? 0) - victim.count);
    total -= victim.count;
  }
  return { ok: true, evict };
}

/**
 * The union of the claims' addresses, interleaved across clients (each client's first address, then each
 * one's second...): any prefix of it is itself a fair share, so a reader that takes fewer (the webhook's
 * registration, WEBHOOK_MAX_ADDRESSES) still takes every client's first addresses.
 */
export function interleave(byClient: Map<string, string[]>): string[] {
  const lists = [...byClient.values()];
  const out: string[] = [];
  const seen = new Set<string>();
  const longest = Math.max(0, ...lists.map((l) => l.length));
  for (let i = 0; i < longest; i++)
    for (const l of lists) {
      const a = l[i];
      if (a !== undefined && !seen.has(a)) {
        seen.add(a);
        out.push(a);
      }
    }
  return out;
}

/** A subscription whose claim was refused or dropped. */
export class FollowShareError extends Error {
  override name = 'FollowShareError';
  constructor(
    readonly reason: 'CLIENT_SHARE' | 'FAIR_SHARE' | 'DROPPED',
    readonly share: number,
  ) {
    super(
      reason === 'CLIENT_SHARE'
        ? `this client may follow at most ${share} addresses on this chain`
        : reason === 'FAIR_SHARE'
          ? `the chain's followed addresses are full; this client's fair share now is ${share}`
          : "this subscription's addresses were given to other clients (the chain's followed addresses are full and this client held more than its share)",
    );
  }
}
