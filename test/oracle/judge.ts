import type { ExecutionResult } from 'graphql';
import { nextCursor } from './workload.js';

/**
 * The cache oracle's judge, shared by the oracle (test/oracle/harness.ts) and the chaos rows
 * (scripts/chaos-kit.ts): an answer is correct when it equals a reference answer (an uncached gateway's,
 * at a world version the cache policy allows) or is made of such answers' parts (`composes`). Under a
 * fault (`judgeUnderFault`) an error with its code is allowed too, and the data beside it is judged alike.
 */

export interface Answer {
  norm: string;
  value: unknown;
  cursor?: string;
}

/** Data with cursors blanked (opaque and signed; their meaning is checked through the pages they lead to), errors by code and path. */
export function normalize(r: ExecutionResult): Answer {
  const errors = (r.errors ?? [])
    .map((e) => ({
      code: (e.extensions as { code?: string } | undefined)?.code ?? null,
      path: (e.path ?? []).join('.'),
    }))
    .sort((a, b) => (a.path + a.code < b.path + b.code ? -1 : 1));
  const data = blankCursors(r.data ?? null);
  const value = errors.length ? { data, errors } : { data };
  return { norm: JSON.stringify(value), value, cursor: nextCursor(r.data) };
}

function blankCursors(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(blankCursors);
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.entries(v).map(([k, c]) => [
        k,
        (k === 'cursor' || k === 'endCursor' || k === 'startCursor') && typeof c === 'string'
          ? '<cursor>'
          : blankCursors(c),
      ]),
    );
  }
  return v;
}

/**
 * The world versions an answer may show: the version current when it ended and each before it that was
 * still current within `boundMs` before the request started (`starts[v]`: when version v began).
 */
export function allowedVersions(
  starts: readonly number[],
  current: number,
  started: number,
  boundMs: number,
): number[] {
  const allowed: number[] = [];
  for (let v = current; v >= 0; v--) {
    if (v === current || starts[v + 1]! > started - boundMs) allowed.push(v);
    else break;
  }
  return allowed;
}

/** Whether `got` equals one of the candidates (answers at allowed versions) or is made of their parts. */
export function matches(got: Answer, candidates: readonly Answer[]): boolean {
  if (candidates.some((c) => c.norm === got.norm)) return true;
  // Each resource has its own freshness, so one answer may join parts read at different allowed versions
  // (a transaction's price refetched, the latest blocks beside it still fresh from the version before).
  // Its errors, a list, are one allowed version's errors whole (by code and path).
  return composes(
    got.value,
    candidates.map((c) => c.value),
  );
}

export type FaultVerdict = { kind: 'ok' | 'error' } | { kind: 'wrong'; why: string };

/**
 * An answer given while a fault happens, against complete reference answers at the allowed versions:
 * `ok` when it matches them, `error` when every error carries a code and the data beside the errors (the
 * errored paths set to null in it and in the references alike) is made of the references' parts, `wrong`
 * otherwise (a value no allowed version had, or an error without a code).
 */
export function judgeUnderFault(
  got: ExecutionResult,
  references: readonly ExecutionResult[],
): FaultVerdict {
  const errors = got.errors ?? [];
  if (errors.length === 0) {
    const ok = matches(normalize(got), references.map(normalize));
    return ok ? { kind: 'ok' } : { kind: 'wrong', why: 'a value no allowed version had' };
  }
  const uncoded = errors.filter((e) => typeof e.extensions?.code !== 'string');
  if (uncoded.length)
    return { kind: 'wrong', why: `an error without a code: ${uncoded[0]!.message}` };
  if (got.data === null || got.data === undefined) return { kind: 'error' };
  let data: unknown = blankCursors(got.data);
  let refs = references.map((r) => blankCursors(r.data ?? null));
  for (const e of errors) {
    const at = nulledPrefix(data, e.path ?? []);
    data = setAt(data, at, null);
    refs = refs.map((r) => setAt(r, at, null));
  }
  return composes(data, refs)
    ? { kind: 'error' }
    : { kind: 'wrong', why: 'the data beside its errors is no allowed version’s' };
}

/** The part of `path` where `data` holds null (an error nulls its field, or the nearest nullable parent). */
function nulledPrefix(data: unknown, path: readonly (string | number)[]): (string | number)[] {
  let v = data;
  for (let i = 0; i < path.length; i++) {
    if (v === null || v === undefined || typeof v !== 'object') return path.slice(0, i);
    v = (v as Record<string | number, unknown>)[path[i]!];
  }
  return [...path];
}

/** A copy of `v` with the value at `path` replaced (nothing when the path is not there). */
function setAt(v: unknown, path: readonly (string | number)[], to: unknown): unknown {
  if (path.length === 0) return to;
  if (v === null || typeof v !== 'object') return v;
  const [k, ...rest] = path;
  const copy = (Array.isArray(v) ? [...v] : { ...v }) as Record<string | number, unknown>;
  if (!(k! in copy)) return v;
  copy[k!] = setAt(copy[k!], rest, to);
  return copy;
}

/**
 * Where an answer holds one address's own data: the outermost objects whose scalar `address` field names
 * one of `addresses` (lower-case 0x hex), each with its path and that address.
 */
export function addressParts(
  v: unknown,
  addresses: ReadonlySet<string>,
  path: (string | number)[] = [],
): { path: (string | number)[]; address: string }[] {
  if (Array.isArray(v)) return v.flatMap((x, i) => addressParts(x, addresses, [...path, i]));
  if (!isObject(v)) return [];
  const own = typeof v.address === 'string' ? v.address.toLowerCase() : undefined;
  if (own && addresses.has(own)) return [{ path, address: own }];
  return Object.entries(v).flatMap(([k, x]) => addressParts(x, addresses, [...path, k]));
}

/** The value at `path` in `v` (undefined when the path is not there). */
export function valueAt(v: unknown, path: readonly (string | number)[]): unknown {
  let at = v;
  for (const k of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string | number, unknown>)[k];
  }
  return at;
}

/**
 * Whether `got` is made of allowed parts when each address's own data may be at versions of its own:
 * every part of `got` that is an address's (`addressParts`) composes from that address's candidates at
 * the same path (the same address there), and the rest, those parts set aside, from `candidates`.
 */
export function composesByAddress(
  got: unknown,
  candidates: readonly unknown[],
  addresses: ReadonlySet<string>,
  candidatesOf: (address: string) => readonly unknown[],
): boolean {
  const parts = addressParts(got, addresses);
  if (parts.length === 0) return false;
  const own = parts.every((p) =>
    composes(
      valueAt(got, p.path),
      candidatesOf(p.address)
        .map((c) => valueAt(c, p.path))
        .filter(
          (x) =>
            isObject(x) && typeof x.address === 'string' && x.address.toLowerCase() === p.address,
        ),
    ),
  );
  const aside = (v: unknown) => parts.reduce((acc, p) => setAt(acc, p.path, '<address>'), v);
  return own && composes(aside(got), candidates.map(aside));
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Whether `got` is made of parts of the candidates (answers at allowed world versions): equal to one of them
 * whole, or an object whose scalar fields all equal one candidate's (an entity is one upstream answer: its
 * fields never mix versions) and whose every object or list field is itself made of the candidates' parts.
 * A list is one upstream answer (one page): its items are one version's items, in that version's order; only
 * what an item nests (fields resolved by reads of their own, such as a chain's `address` or a block's
 * `state`) may come from another allowed version's same item.
 */
export function composes(got: unknown, candidates: readonly unknown[]): boolean {
  const text = JSON.stringify(got);
  if (candidates.some((c) => JSON.stringify(c) === text)) return true;
  if (Array.isArray(got)) return composesList(got, candidates);
  if (!isObject(got)) return false;
  const objects = candidates.filter(isObject);
  const scalarKeys = Object.keys(got).filter((k) => !isObject(got[k]) && !Array.isArray(got[k]));
  const sameScalars = objects.filter((c) =>
    scalarKeys.every((k) => JSON.stringify(c[k]) === JSON.stringify(got[k])),
  );
  if (sameScalars.length === 0) return false;
  return Object.keys(got)
    .filter((k) => !scalarKeys.includes(k))
    .every((k) =>
      composes(
        got[k],
        objects.filter((c) => k in c).map((c) => c[k]),
      ),
    );
}

const scalarsOf = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => !isObject(v) && !Array.isArray(v)));

/** What makes a list item one upstream item: its own scalar fields, and its `node`'s (a connection edge). */
function itemIdentity(v: unknown): string {
  if (!isObject(v)) return JSON.stringify(v);
  const own = scalarsOf(v);
  return JSON.stringify(isObject(v.node) ? { ...own, node: scalarsOf(v.node) } : own);
}

function composesList(got: unknown[], candidates: readonly unknown[]): boolean {
  const ids = got.map(itemIdentity);
  const lists = candidates.filter((c): c is unknown[] => Array.isArray(c));
  if (!lists.some((l) => l.length === got.length && l.every((x, i) => itemIdentity(x) === ids[i])))
    return false;
  const items = lists.flat();
  return got.every((g, i) =>
    composes(
      g,
      items.filter((x) => itemIdentity(x) === ids[i]),
    ),
  );
}

export const hasErrors = (v: unknown) => (v as { errors?: unknown[] }).errors !== undefined;
