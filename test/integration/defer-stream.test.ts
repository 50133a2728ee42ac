import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { describe, expect, it } from 'vitest';
import { type TestGateway, useSimAndGateway } from '../support/gateway.js';
import { simGet } from '../support/sim.js';

/**
 * @defer and @stream over multipart/mixed (Yoga's incremental delivery): a slow part (here the network
 * node, held back 400 ms by the simulator) arrives after the fast one instead of holding it back.
 */
const C = '43114';
let sim: RunningSimulator;
let gw: TestGateway;
useSimAndGateway({ redis: true }, (s, g) => {
  sim = s;
  gw = g;
});

interface Part {
  data?: Record<string, any>;
  incremental?: {
    data?: Record<string, any>;
    items?: unknown[];
    label?: string;
    path: unknown[];
  }[];
  hasNext?: boolean;
  errors?: unknown[];
}

/** The JSON parts of a multipart/mixed body, in order. */
async function parts(res: Response): Promise<Part[]> {
  expect(res.headers.get('content-type')).toMatch(/^multipart\/mixed/);
  expect(res.headers.get('cache-control')).toBe('no-store');
  const text = await res.text();
  return text
    .split(/\r\n---/)
    .map((chunk) => chunk.slice(chunk.indexOf('\r\n\r\n') + 4).trim())
    .filter((body) => body.startsWith('{'))
    .map((body) => JSON.parse(body) as Part);
}

const send = (query: string) =>
  gw.yoga.fetch('http://gateway.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'multipart/mixed' },
    body: JSON.stringify({ query }),
  });

describe('@defer and @stream', () => {
  it('a deferred slow node field arrives in a later part; the block comes first', async () => {
    const { blocks } = await simGet(sim.dataApiUrl, `/v1/chains/${C}/blocks`, { pageSize: 1 });
    const n = String(Number(blocks[0].blockNumber) - 5);
    sim.addFault({ route: 'node POST /ext/info', latencyMs: 400 });
    const all = await parts(
      await send(
        `{ block(chainId: "${C}", id: "${n}") { number } ... @defer(label: "node") { networkNode { version { version } } } }`,
      ),
    );
    sim.clearFaults();
    expect(all.length).toBeGreaterThanOrEqual(2);
    const [first, ...rest] = all;
    expect(first!.data).toEqual({ block: { number: n } });
    expect(first!.hasNext).toBe(true);
    const deferred = rest.flatMap((p) => p.incremental ?? []).find((i) => i.label === 'node');
    expect(deferred?.data?.networkNode?.version?.version).toEqual(expect.any(String));
    expect(all.at(-1)!.hasNext).toBe(false);
  });

  it('@stream sends the first edges at once and the rest as items', async () => {
    const all = await parts(
      await send(
        `{ chain(id: "${C}") { blocks(first: 4) { edges @stream(initialCount: 1) { node { number } } } } }`,
      ),
    );
    const first = all[0]!;
    expect(first.data?.chain?.blocks?.edges).toHaveLength(1);
    const items = all.flatMap((p) => p.incremental ?? []).flatMap((i) => i.items ?? []);
    expect(items).toHaveLength(3);
    expect(all.at(-1)!.hasNext).toBe(false);
  });
});
