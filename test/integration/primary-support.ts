import type { RunningSimulator } from '@avalanche-gateway/simulator';
import type { ExecutionResult } from 'graphql';
import { expect } from 'vitest';

/**
 * Helpers shared by the primary-network, ICM, metrics and signature tests: the upstream's own answers
 * (the reference every gateway result is compared with), connection walks, call counts, error checks.
 */
export type Query = Record<string, string | number | boolean | undefined | readonly string[]>;

export async function upstreamGet(base: string, path: string, query: Query = {}): Promise<any> {
  const u = new URL(base + path);
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const item of v) u.searchParams.append(k, item);
    else u.searchParams.set(k, String(v));
  }
  const res = await fetch(u);
  if (res.status >= 300) throw new Error(`sim ${path}: HTTP ${res.status} ${await res.text()}`);
  return res.json();
}

/** Every item of an upstream list, following nextPageToken. */
export async function upstreamWalk(
  base: string,
  path: string,
  field: string,
  query: Query = {},
  pageSize = 100,
): Promise<any[]> {
  const out: any[] = [];
  let pageToken: string | undefined;
  do {
    const page = await upstreamGet(base, path, { ...query, pageSize, pageToken });
    out.push(...page[field]);
    pageToken = page.nextPageToken || undefined;
  } while (pageToken);
  return out;
}

export interface Conn<E> {
  edges: readonly E[];
  pageInfo: { hasNextPage: boolean; endCursor?: string | null };
}

/** Pages a connection with `first` until hasNextPage is false; returns every edge. */
export async function walk<E>(
  page: (after: string | null) => Promise<Conn<E>>,
  maxRequests = 200,
): Promise<E[]> {
  const edges: E[] = [];
  let after: string | null = null;
  for (let n = 0; n < maxRequests; n++) {
    const conn = await page(after);
    edges.push(...conn.edges);
    if (!conn.pageInfo.hasNextPage) return edges;
    after = conn.pageInfo.endCursor!;
  }
  throw new Error('connection did not end');
}

/** Upstream calls by route since the last reset, without the zeros. */
export const routeCalls = (sim: RunningSimulator): Record<string, number> =>
  Object.fromEntries(Object.entries(sim.stats().byRoute).filter(([, n]) => n > 0));

/** The result failed with exactly one BAD_USER_INPUT naming `argument`. */
export function expectBadInput(r: ExecutionResult, argument: string): void {
  expect(r.errors?.map((e) => [e.extensions?.code, e.extensions?.argument])).toEqual([
    ['BAD_USER_INPUT', argument],
  ]);
}

export const globalId = (type: string, key: string): string =>
  Buffer.from(`${type}:${key}`, 'utf8').toString('base64url');

export const iso = (seconds: number): string => new Date(seconds * 1000).toISOString();

/** `undefined` → `null`, as GraphQL renders an absent optional field. */
export const orNull = <T>(v: T | undefined): T | null => (v === undefined ? null : v);

/** Lets the gateway's fire-and-forget cache writes land before a warm run. */
export const settle = (gw: { settled(): Promise<void> }): Promise<void> => gw.settled();
