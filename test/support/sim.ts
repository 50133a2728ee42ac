import { type RunningSimulator, startSimulator } from '@avalanche-gateway/simulator';
import { Redis } from 'ioredis';

/** Starts a simulator on a free loopback port for one test file. */
export async function startTestSimulator(
  opts: Parameters<typeof startSimulator>[0] = {},
): Promise<RunningSimulator> {
  return startSimulator({ port: 0, host: '127.0.0.1', ...opts });
}

/** GET a simulator route directly (the reference answer a gateway result is compared with). */
export async function simGet<T = any>(
  base: string,
  path: string,
  query: Record<string, string | number | undefined> = {},
): Promise<T> {
  const u = new URL(base + path);
  for (const [k, v] of Object.entries(query)) if (v !== undefined) u.searchParams.set(k, String(v));
  const res = await fetch(u);
  if (!res.ok) throw new Error(`sim ${path}: HTTP ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Every item of a Data API list, following nextPageToken at the largest page size. */
export async function simWalk<T = any>(
  base: string,
  path: string,
  field: string,
  pageSize = 100,
  limit = 10_000,
): Promise<T[]> {
  const out: T[] = [];
  let pageToken: string | undefined;
  do {
    const page = await simGet<Record<string, any>>(base, path, { pageSize, pageToken });
    out.push(...(page[field] as T[]));
    pageToken = page.nextPageToken || undefined;
  } while (pageToken && out.length < limit);
  return out;
}

/**
 * The number of a C-Chain block `index` places below the 250th below the head, with the simulator's
 * counts reset and its get-block route set to answer 503 once: a block nothing else asked for by
 * number, whose first upstream attempt fails and is retried.
 */
export async function blockFailingOnce(sim: RunningSimulator, index: number): Promise<string> {
  // Below the latest-blocks pages a test may have read (100 blocks each): such a page holds its blocks
  // as facts (docs/caching.md), so a block on it would not be asked of the upstream at all.
  const { blocks } = await simGet(sim.dataApiUrl, '/v1/chains/43114/blocks', { pageSize: 1 });
  sim.reset();
  sim.addFault({
    route: 'data-api GET /v1/chains/:chainId/blocks/:blockId',
    status: 503,
    body: { message: 'down', statusCode: 503, error: 'Service Unavailable' },
    count: 1,
  });
  return String(Number(blocks[0].blockNumber) - 250 - index);
}

/** Empties one Redis database (a test's own, from `allocateRedisDb` in test/support/redis-db.ts). */
export async function flushRedisDb(url: string): Promise<void> {
  const r = new Redis(url);
  try {
    await r.flushdb();
  } finally {
    r.disconnect();
  }
}

/** The simulated node's own answer to one JSON-RPC call (the reference a gateway result is compared with). */
export async function simNodeRpc(
  nodeUrl: string,
  path: string,
  method: string,
  params: unknown = {},
): Promise<any> {
  const res = await fetch(`${nodeUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: unknown };
  if (body.error) throw new Error(JSON.stringify(body.error));
  return body.result;
}
