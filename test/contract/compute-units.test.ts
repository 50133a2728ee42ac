import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CU_DEFAULTS,
  cuPrice,
  cuPricer,
  listedCu,
  METRICS_WEIGHTS,
  PLANS,
  WEIGHTS,
} from '../../src/upstream/compute-units.js';
import { routeTemplate } from '../../src/upstream/observe.js';

/**
 * The CU price list against the published rate-limit page (the figures the issue quotes) and against
 * the OpenAPI specs' own `x-execution-weight` (read in place), so a typo in the table fails here.
 */
const spec = (name: string) =>
  JSON.parse(
    readFileSync(new URL(`../../../shared/upstream/${name}`, import.meta.url), 'utf8'),
  ) as { paths: Record<string, Record<string, { 'x-execution-weight'?: string }>> };

describe('compute units', () => {
  it('has the published plans and weight classes', () => {
    expect(PLANS.unauthenticated).toEqual({ perMinute: 6_000, perDay: 1_200_000 });
    expect(PLANS.free).toEqual({ perMinute: 8_000, perDay: 2_000_000 });
    expect(PLANS.base).toEqual({ perMinute: 10_000, perDay: 3_750_000 });
    expect(PLANS.growth).toEqual({ perMinute: 14_000, perDay: 11_200_000 });
    expect(PLANS.pro).toEqual({ perMinute: 20_000, perDay: 25_000_000 });
    expect(WEIGHTS).toEqual({ free: 1, small: 10, medium: 20, large: 50, xl: 100, xxl: 200 });
  });

  it('prices the routes the page lists, whatever form the route is named in', () => {
    expect(cuPrice('data', '/v1/chains')).toBe(1);
    expect(cuPrice('data', '/v1/chains/43114')).toBe(1);
    expect(cuPrice('data', '/v1/chains/:id')).toBe(1);
    expect(cuPrice('data', '/v1/chains/allBlocks')).toBe(1);
    expect(cuPrice('data', '/v1/chains/:id/blocks')).toBe(10);
    expect(cuPrice('data', 'GET /v1/chains/:id/blocks/:id')).toBe(10);
    expect(cuPrice('data', '/v1/chains/:id/blocks/:id/transactions')).toBe(20);
    expect(cuPrice('data-api', '/v1/chains/:id/addresses/:id/balances:getNative')).toBe(20);
    expect(cuPrice('data', 'balances:getNative')).toBe(20);
    expect(cuPrice('data', 'getNativeBalance')).toBe(20);
    expect(cuPrice('data', 'listTransactions')).toBe(20);
    // routeTemplate keeps literal words: a network and a chain alias are words, still parameters here.
    const pTxs = routeTemplate('/v1/networks/mainnet/blockchains/p-chain/transactions');
    expect(cuPrice('data', pTxs)).toBe(100);
    expect(cuPrice('data', '/v1/networks/fuji/blockchains/x-chain/transactions:listStaking')).toBe(
      100,
    );
    expect(cuPrice('data', '/v1/networks/mainnet/rewards:listPending')).toBe(100);
    expect(cuPrice('data', '/v1/networks/mainnet/addresses:listChainIds')).toBe(100);
    expect(cuPrice('data', '/v1/networks/mainnet')).toBe(100);
    expect(cuPrice('data', '/v1/networks/mainnet/validators')).toBe(20);
    expect(cuPrice('data', '/v1/icm/messages/:id')).toBe(20);
    expect(cuPrice('data', '/v1/apiUsageMetrics')).toBe(200);
    expect(cuPrice('data', 'POST /v1/signatureAggregator/mainnet/aggregateSignatures')).toBe(20);
    expect(cuPrice('metrics', '/v2/chains/:id/metrics/txCount')).toBe(100);
    expect(cuPrice('metrics-api', '/v2/chains')).toBe(1);
  });

  it('prices JSON-RPC methods by the page', () => {
    for (const m of ['eth_chainId', 'eth_syncing', 'net_version'])
      expect(cuPrice('rpc', m)).toBe(1);
    for (const m of [
      'eth_blockNumber',
      'eth_call',
      'eth_getBalance',
      'eth_getBlockByNumber',
      'eth_getTransactionCount',
      'eth_getTransactionReceipt',
    ])
      expect(cuPrice('node', m)).toBe(10);
    expect(cuPrice('rpc', 'eth_getCode')).toBe(20);
    expect(cuPrice('rpc', 'eth_getStorageAt')).toBe(20);
    expect(cuPrice('rpc', 'eth_getLogs')).toBe(200);
  });

  it('charges what the page omits its documented default, settable', () => {
    expect(listedCu('rpc', 'platform.getHeight')).toBeUndefined();
    expect(cuPrice('rpc', 'platform.getHeight')).toBe(CU_DEFAULTS.rpc);
    expect(cuPrice('data', '/v1/nothing/here')).toBe(CU_DEFAULTS.data);
    expect(cuPrice('metrics', '/v2/validators/metrics/x')).toBe(CU_DEFAULTS.metrics);
    const price = cuPricer({ rpc: 7, data: 33 });
    expect(price('rpc', 'platform.getHeight')).toBe(7);
    expect(price('data', '/v1/nothing/here')).toBe(33);
    expect(price('rpc', 'eth_getLogs')).toBe(200);
  });

  it('agrees with every weight the specs publish', () => {
    const check = (file: string, upstream: 'data', scale: Record<string, number>): number => {
      let n = 0;
      for (const [path, ops] of Object.entries(spec(file).paths))
        for (const [method, op] of Object.entries(ops)) {
          const w = op['x-execution-weight'];
          if (!w || path.startsWith('/v1/webhooks')) continue;
          const listed = listedCu(upstream, `${method.toUpperCase()} ${path}`);
          if (listed === undefined) continue;
          expect.soft(listed, `${method} ${path}`).toBe(scale[w]);
          n++;
        }
      return n;
    };
    expect(check('data-api.openapi.json', 'data', WEIGHTS)).toBeGreaterThan(60);
    // The Metrics page prices its metric routes Medium where its spec says small: the page rules there;
    // the routes it omits take the spec's class on the Metrics scale.
    expect(cuPrice('metrics', '/v2/icm/summary')).toBe(METRICS_WEIGHTS.small);
  });
});
