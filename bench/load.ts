import { Agent, request } from 'node:http';

/**
 * What the bench scripts send and how they send a fixed amount of it: the block-with-its-first-five-
 * transactions question every scenario asks (also of the peer, in its own words: bench/peer.ts), and a
 * keep-alive driver that times a fixed number of requests exactly.
 */
export const BLOCK_QUERY = `query Bench($c: String!, $id: String!) { block(chainId: $c, id: $id) { number hash timestamp txCount gasUsed baseFee
  transactions(first: 5) { edges { node { hash from { address } to { address } value gasUsed status } } } } }`;

/** The request body asking BLOCK_QUERY for block `id` of chain `c`. */
export const blockBody = (id: string, c = '43114') =>
  JSON.stringify({ query: BLOCK_QUERY, variables: { c, id } });

export interface LoadResult {
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p99: number;
}

/**
 * A fixed number of requests (the cold rows: every one a different miss) from `connections` clients
 * over keep-alive sockets, timed exactly; a non-200 answer or one with GraphQL errors counts as an error. autocannon is not used here: it notices the end of a fixed
 * amount on its one-second tick, so 400 requests done in 1.2 s read as 200 req/s.
 */
export async function fixedLoad(
  url: string,
  bodies: () => string,
  amount: number,
  connections: number,
  agent = new Agent({ keepAlive: true, maxSockets: connections }),
): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  let sent = 0;
  const one = (payload: string) =>
    new Promise<void>((resolve) => {
      const t = performance.now();
      const req = request(
        url,
        { method: 'POST', agent, headers: { 'content-type': 'application/json' } },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            text += chunk;
          });
          res.on('end', () => {
            latencies.push(performance.now() - t);
            // A GraphQL error answered with 200 is a failure too (it would read as a fast answer).
            if (res.statusCode !== 200 || text.includes('"errors":')) errors++;
            resolve();
          });
        },
      );
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end(payload);
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (sent < amount) {
        sent++;
        await one(bodies());
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const q = (x: number) =>
    Math.round(latencies[Math.min(latencies.length - 1, Math.floor(x * latencies.length))] ?? 0);
  return {
    requests: latencies.length,
    errors,
    rps: Math.round(amount / seconds),
    p50: q(0.5),
    p99: q(0.99),
  };
}

/**
 * The load of the per-query scripts (cpu-per-query.ts, gc-promotion.ts): `cold` cycles over 300
 * distinct blocks below `head` (with a 1 MiB cache, every query misses), warm repeats one block. Each
 * call sends `n` queries from `clients` keep-alive clients and throws on any failed answer.
 */
export function blockRunner(
  url: string,
  o: { head: number; cold: boolean; clients: number; bodyOf?: (id: string) => string },
): (n: number) => Promise<LoadResult> {
  const ids = o.cold
    ? Array.from({ length: 300 }, (_, i) => String(o.head - 10 - i))
    : [String(o.head - 5)];
  const bodyOf = o.bodyOf ?? ((id: string) => blockBody(id));
  const agent = new Agent({ keepAlive: true, maxSockets: o.clients });
  let next = 0;
  return async (n) => {
    const r = await fixedLoad(url, () => bodyOf(ids[next++ % ids.length]!), n, o.clients, agent);
    if (r.errors > 0) throw new Error(`${r.errors} failed answers`);
    return r;
  };
}
