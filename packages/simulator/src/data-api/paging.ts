/**
 * Forward-only paging over a list held ascending: one page in either order, starting after a
 * position key, plus the key to continue from when more items remain.
 */

/** First index in [lo, hi) whose item satisfies a monotone predicate (hi when none). */
export function lowerBound<T>(
  items: readonly T[],
  pred: (t: T) => boolean,
  lo = 0,
  hi = items.length,
): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (pred(items[mid]!)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export interface PageOptions<T, K> {
  /** Window [lo, hi) of the ascending list to page over. */
  lo?: number;
  hi?: number;
  desc: boolean;
  size: number;
  /** Continue strictly after this key (in paging order). */
  after?: K;
  key: (t: T) => K;
  cmp: (a: K, b: K) => number;
  filter?: (t: T) => boolean;
}

export function pageOf<T, K>(items: readonly T[], o: PageOptions<T, K>): { page: T[]; next?: K } {
  const lo = o.lo ?? 0;
  const hi = o.hi ?? items.length;
  const after = o.after;
  let i: number;
  if (o.desc)
    i =
      after === undefined
        ? hi - 1
        : lowerBound(items, (t) => o.cmp(o.key(t), after) >= 0, lo, hi) - 1;
  else i = after === undefined ? lo : lowerBound(items, (t) => o.cmp(o.key(t), after) > 0, lo, hi);
  const step = o.desc ? -1 : 1;
  const inside = (j: number) => j >= lo && j < hi;
  const page: T[] = [];
  for (; inside(i) && page.length < o.size; i += step) {
    const t = items[i]!;
    if (!o.filter || o.filter(t)) page.push(t);
  }
  let more = false;
  for (; inside(i); i += step) {
    if (!o.filter || o.filter(items[i]!)) {
      more = true;
      break;
    }
  }
  return more && page.length > 0 ? { page, next: o.key(page[page.length - 1]!) } : { page };
}

export const cmpNum = (a: number, b: number) => a - b;
/** Compares [major, minor] pairs (tx seq, index in the tx). */
export const cmpPair = (a: readonly [number, number], b: readonly [number, number]) =>
  a[0] - b[0] || a[1] - b[1];
