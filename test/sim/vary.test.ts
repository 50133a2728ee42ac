import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { type RunningSimulator, startSimulator } from '@avalanche-gateway/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestGateway } from '../support/gateway.js';

/**
 * SIM_VARY: spec-valid variants (the contract-vary project validates them against the specs); here:
 * that they really differ from the plain answers in the ways the spec allows, that they are a
 * function of content (same request, same answer), and that identity fields never move.
 */

let plain: RunningSimulator;
let varied: RunningSimulator;
let other: RunningSimulator;
beforeAll(async () => {
  [plain, varied, other] = await Promise.all([
    startSimulator({ port: 0 }),
    startSimulator({ port: 0, vary: 'v1' }),
    startSimulator({ port: 0, vary: 'v2' }),
  ]);
});
afterAll(async () => {
  await Promise.all([plain?.close(), varied?.close(), other?.close()]);
});

const getJson = async (base: string, path: string) =>
  (await fetch(base + path)).json() as Promise<any>;

/** Every leaf of a JSON value as `path → value` (array indices kept). */
function leaves(v: unknown, path = '', out = new Map<string, unknown>()): Map<string, unknown> {
  if (v !== null && typeof v === 'object') {
    for (const [k, c] of Object.entries(v)) leaves(c, `${path}/${k}`, out);
    if (Array.isArray(v) && v.length === 0) out.set(path, '[]');
  } else out.set(path, v);
  return out;
}

const PATHS = (f: RunningSimulator['world']['fixtures']) => [
  '/v1/chains/43114/blocks?pageSize=100',
  '/v1/chains/43114/transactions?pageSize=100',
  `/v1/chains/43114/addresses/${f.busyAddress}/transactions?pageSize=100`,
  `/v1/chains/43114/addresses/${f.busyAddress}/transactions:listErc20?pageSize=100`,
  `/v1/networks/mainnet/validators/${plain.world.selfNodeId}?pageSize=100`,
  '/v1/networks/mainnet/l1Validators?pageSize=100',
  `/v1/icm/addresses/${f.icmAddress}/messages?pageSize=100`,
];

describe('spec variation (SIM_VARY)', () => {
  it('varies what the spec allows: absent optional fields, nulls, values past 2^53, other enum values, empty nested lists', async () => {
    const seen = { absent: 0, nulled: 0, above53: 0, changed: 0, emptied: 0 };
    const activeNodes = plain.world.primary.mainnet.validators
      .filter((v) => v.status === 'active')
      .slice(0, 40)
      .map((v) => v.nodeId);
    const validatorPaths = activeNodes.map(
      (n) => `/v1/networks/mainnet/validators/${n}?validationStatus=active`,
    );
    for (const path of [...PATHS(plain.world.fixtures), ...validatorPaths]) {
      const a = leaves(await getJson(plain.dataApiUrl, path));
      const b = leaves(await getJson(varied.dataApiUrl, path));
      for (const [k, v] of a) {
        if (!b.has(k)) {
          const ancestor = [...b.entries()].find(([bk]) => k.startsWith(`${bk}/`));
          if (ancestor?.[1] === '[]') seen.emptied++;
          else if (ancestor?.[1] === null) seen.nulled++;
          else seen.absent++;
        } else if (b.get(k) === null && v !== null) seen.nulled++;
        else if (b.get(k) !== v) {
          seen.changed++;
          const n = Number(b.get(k));
          if (Number.isFinite(n) && n > 2 ** 53) seen.above53++;
        }
      }
    }
    expect(seen.absent).toBeGreaterThan(10);
    expect(seen.nulled).toBeGreaterThan(0); // validator geolocation: required, nullable
    expect(seen.above53).toBeGreaterThan(10);
    expect(seen.changed).toBeGreaterThan(seen.above53);
    expect(seen.emptied).toBeGreaterThan(0);
  });

  it('keeps identity: ids, hashes, block numbers, addresses, timestamps and page tokens are the plain world', async () => {
    const path = '/v1/chains/43114/transactions?pageSize=50';
    const a = await getJson(plain.dataApiUrl, path);
    const b = await getJson(varied.dataApiUrl, path);
    const ident = (t: any) => [
      t.txHash,
      t.blockNumber,
      t.blockHash,
      t.blockTimestamp,
      t.from?.address,
      t.blockIndex,
    ];
    expect(b.transactions.map(ident)).toEqual(a.transactions.map(ident));
    expect(b.nextPageToken).toBeTruthy();
    const page2 = await getJson(varied.dataApiUrl, `${path}&pageToken=${b.nextPageToken}`);
    expect(page2.transactions.length).toBeGreaterThan(0);
  });

  it('is a function of the content and the seed: the same request gets the same variant, another seed another', async () => {
    const path = `/v1/chains/43114/addresses/${plain.world.fixtures.busyAddress}/transactions?pageSize=100`;
    const noToken = ({ nextPageToken: _t, ...rest }: any) => rest;
    const once = noToken(await getJson(varied.dataApiUrl, path));
    expect(noToken(await getJson(varied.dataApiUrl, path))).toEqual(once);
    expect(noToken(await getJson(other.dataApiUrl, path))).not.toEqual(once);
  });

  it('varies the Metrics API too, and reports which spec routes it varied', async () => {
    const path = '/v2/chains/43114/metrics/txCount?timeInterval=day&pageSize=50';
    const a = await getJson(plain.metricsApiUrl, path);
    const b = await getJson(varied.metricsApiUrl, path);
    expect(b).not.toEqual(a);
    expect(b.results.map((r: any) => r.timestamp)).toEqual(a.results.map((r: any) => r.timestamp));
    const health = await getJson(varied.url, '/_sim/health');
    expect(health.vary).toBe('v1');
  });
});

describe('percentages keep to their bounds', () => {
  it('a `stakePercentage` (matches "stake") never goes past 2^53 like an amount does', async () => {
    const { SpecVarier } = await import('@avalanche-gateway/simulator/vary/spec-variation.js');
    const spec = {
      paths: {
        '/v': {
          get: {
            responses: {
              '200': {
                content: { 'application/json': { schema: { $ref: '#/components/schemas/V' } } },
              },
            },
          },
        },
      },
      components: {
        schemas: {
          V: {
            type: 'object',
            required: ['stakePercentage', 'amountStaked'],
            properties: { stakePercentage: { type: 'number' }, amountStaked: { type: 'number' } },
          },
        },
      },
    };
    const seen = { pct: new Set<number>(), amount: new Set<number>() };
    for (let i = 0; i < 200; i++) {
      const out = new SpecVarier(spec, `pct-${i}`).vary('GET /v', 200, {
        stakePercentage: 0.0496,
        amountStaked: 5,
      }) as { stakePercentage: number; amountStaked: number };
      seen.pct.add(out.stakePercentage);
      seen.amount.add(out.amountStaked);
    }
    expect(seen.amount.has(2 ** 53 + 2)).toBe(true);
    expect([...seen.pct].every((p) => p <= 100)).toBe(true);
  });
});

describe('a varied simulator compresses what the client accepts, as a CDN in front of the real one does', () => {
  const raw = (base: string, path: string, acceptEncoding?: string) =>
    new Promise<{ encoding: string | undefined; bytes: Buffer }>((resolve, reject) => {
      http
        .get(
          base + path,
          { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} },
          (res) => {
            const parts: Buffer[] = [];
            res.on('data', (c: Buffer) => parts.push(c));
            res.on('end', () =>
              resolve({
                encoding: res.headers['content-encoding'],
                bytes: Buffer.concat(parts),
              }),
            );
          },
        )
        .on('error', reject);
    });

  /** A past block (its answers do not change while the test runs) whose transactions page is worth compressing. */
  const busyBlock = async () => {
    const n = (await getJson(varied.dataApiUrl, '/v1/chains/43114/blocks?pageSize=2')).blocks[1]
      .blockNumber as string;
    for (let back = 30; back < 80; back++) {
      const p = `/v1/chains/43114/blocks/${Number(n) - back}/transactions?pageSize=100`;
      if (JSON.stringify(await getJson(varied.dataApiUrl, p)).length >= 1024)
        return String(Number(n) - back);
    }
    throw new Error('no block with enough transactions');
  };

  it('gzip or brotli when asked, plain when not asked or when not varied', async () => {
    const path = `/v1/chains/43114/blocks/${await busyBlock()}/transactions?pageSize=100`;
    const expected = await getJson(varied.dataApiUrl, path);
    const gz = await raw(varied.dataApiUrl, path, 'gzip');
    expect(gz.encoding).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.bytes).toString())).toEqual(expected);
    const br = await raw(varied.dataApiUrl, path, 'br');
    expect(br.encoding).toBe('br');
    expect(JSON.parse(brotliDecompressSync(br.bytes).toString())).toEqual(expected);
    expect((await raw(varied.dataApiUrl, path)).encoding).toBeUndefined();
    expect((await raw(plain.dataApiUrl, path, 'gzip, br')).encoding).toBeUndefined();
  });

  it('the gateway reads the compressed answers: the same transactions as the simulator’s', async () => {
    const gw = createTestGateway(varied);
    const n = await busyBlock();
    const page = await getJson(
      varied.dataApiUrl,
      `/v1/chains/43114/blocks/${n}/transactions?pageSize=100`,
    );
    const r = await gw.query(
      `{ block(chainId: "43114", id: "${n}") { transactions(first: 3) { edges { node { hash } } } } }`,
    );
    expect(r.errors).toBeUndefined();
    expect(r.data).toEqual({
      block: {
        transactions: {
          edges: page.transactions
            .slice(0, 3)
            .map((t: { txHash: string }) => ({ node: { hash: t.txHash } })),
        },
      },
    });
    await gw.close();
  });
});
