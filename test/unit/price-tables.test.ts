import {
  DATA_API,
  METRICS_API,
  type PricedApi,
  RPC,
  simCu,
} from '@avalanche-gateway/simulator/prices.js';
import * as simSpec from '@avalanche-gateway/simulator/spec.js';
import { describe, expect, it } from 'vitest';
import * as dataSpec from '../../src/spec/data-api.js';
import * as metricsSpec from '../../src/spec/metrics-api.js';
import { type CuUpstream, cuPrice } from '../../src/upstream/compute-units.js';
import {
  DATA_ROUTES,
  METRICS_ROUTES,
  RPC_METHODS,
} from '../../src/upstream/compute-units-table.js';

/**
 * Issue 46: the simulator charges from its own copy of the published prices
 * (packages/simulator/src/prices.ts) and the gateway estimates and meters from its own
 * (src/upstream/compute-units-table.ts). Each route and method either lists, priced by both: a wrong
 * price in either is a disagreement here, not a silent agreement of the gateway with itself.
 */
type Price = (api: PricedApi, route: string) => number;
const gatewayPrice: Price = (api, route) => cuPrice(api as CuUpstream, route);

/** Every route or method either table lists, as `api route`. */
function everyRoute(): [PricedApi, string][] {
  const routeOf = (row: string) => row.split(' ').slice(0, 2).join(' ');
  return [
    ...DATA_ROUTES.map((r): [PricedApi, string] => ['data', routeOf(r)]),
    ...DATA_API.map(([r]): [PricedApi, string] => ['data', r]),
    ...METRICS_ROUTES.map((r): [PricedApi, string] => ['metrics', routeOf(r)]),
    ...METRICS_API.map(([r]): [PricedApi, string] => ['metrics', r]),
    ...Object.keys(RPC_METHODS).map((m): [PricedApi, string] => ['rpc', m]),
    ...Object.keys(RPC).map((m): [PricedApi, string] => ['rpc', m]),
  ];
}

function disagreements(gateway: Price, simulator: Price): string[] {
  const out = new Set<string>();
  for (const [api, route] of everyRoute()) {
    const [g, s] = [gateway(api, route), simulator(api, route)];
    if (g !== s) out.add(`${api} ${route}: gateway ${g}, simulator ${s}`);
  }
  return [...out];
}

describe('the two price tables', () => {
  it('list the same routes and methods at the same prices', () => {
    expect(DATA_API.length).toBe(DATA_ROUTES.length);
    expect(METRICS_API.length).toBe(METRICS_ROUTES.length);
    expect(Object.keys(RPC).sort()).toEqual(Object.keys(RPC_METHODS).sort());
    expect(disagreements(gatewayPrice, simCu)).toEqual([]);
  });

  it('and the routes the simulator serves under its own names (`:param`) too', () => {
    const served = [
      'GET /v1/chains/:chainId/blocks',
      'GET /v1/chains/:chainId/blocks/:blockId/transactions',
      'GET /v1/chains/:chainId/addresses/:address/balances:getNative',
      'GET /v2/chains/:chainId/metrics/:metric',
    ];
    for (const r of served) {
      const api: PricedApi = r.includes('/v2/') ? 'metrics' : 'data';
      expect(simCu(api, r), r).toBe(gatewayPrice(api, r));
    }
  });

  it('a planted wrong price in either is found', () => {
    const wrong =
      (price: Price, route: string): Price =>
      (api, r) =>
        r === route ? price(api, r) + 10 : price(api, r);
    expect(disagreements(gatewayPrice, wrong(simCu, 'GET /v1/blocks'))).toEqual([
      'data GET /v1/blocks: gateway 20, simulator 30',
    ]);
    expect(disagreements(wrong(gatewayPrice, 'eth_getLogs'), simCu)).toEqual([
      'rpc eth_getLogs: gateway 210, simulator 200',
    ]);
  });
});

describe('the two copies of the specs’ enumerations', () => {
  it('are the same, value by value and in order', () => {
    expect(simSpec.VALIDATOR_SORT_BY).toEqual(dataSpec.VALIDATOR_SORT_BY);
    expect(simSpec.CURRENCY_CODES).toEqual(dataSpec.CURRENCY_CODES);
    expect(simSpec.P_CHAIN_TX_TYPES).toEqual(dataSpec.P_CHAIN_TX_TYPES);
    expect(simSpec.PRIMARY_NETWORK_TX_TYPES).toEqual(dataSpec.PRIMARY_NETWORK_TX_TYPES);
    expect(simSpec.CHAIN_METRICS).toEqual(metricsSpec.CHAIN_METRICS);
    expect(simSpec.ROLLING_WINDOW_METRICS).toEqual(metricsSpec.ROLLING_WINDOW_METRICS);
  });
});
