/** The edges a spec-valid leaf may sit at (`SIM_VARY`, see spec-variation.ts). */

export type Schema = { [k: string]: unknown };

const UINT64_MAX = '18446744073709551615';
const ABOVE_2_53 = 2 ** 53 + 2;

/** A leaf at one of its edges, or another enum value; `pick` in [0, 1) chooses. */
export function edge(s: Schema, v: unknown, pick: number, amount: boolean): unknown {
  const choose = <T>(xs: readonly T[]): T =>
    xs[Math.min(xs.length - 1, Math.floor(pick * xs.length))]!;
  const e = s.enum as unknown[] | undefined;
  if (e) return e.length > 1 ? choose(e) : v;
  const min = s.minimum as number | undefined;
  const max = s.maximum as number | undefined;
  if (typeof v === 'number' && (s.type === 'integer' || s.type === 'number')) {
    const edges: number[] = [min ?? 0];
    if (max !== undefined) edges.push(max);
    if (amount && max === undefined) edges.push(ABOVE_2_53);
    // A fractional field (the world sends fractions there) may take a tiny fraction.
    if (s.type === 'number' && !Number.isInteger(v)) edges.push(0.000001);
    return choose(edges);
  }
  if (
    typeof v === 'string' &&
    /^\d+$/.test(v) &&
    (s.type === undefined || s.type === 'string') &&
    !s.pattern &&
    !s.format
  ) {
    return amount ? choose(['0', String(ABOVE_2_53), UINT64_MAX]) : v;
  }
  if (typeof v === 'boolean' && s.type === 'boolean') return !v;
  return v;
}
