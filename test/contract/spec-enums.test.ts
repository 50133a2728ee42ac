import { describe, expect, it } from 'vitest';
import * as dataApi from '../../src/spec/data-api.js';
import * as metricsApi from '../../src/spec/metrics-api.js';
import { readSpec } from '../support/specs.js';

/**
 * `src/spec/` writes the OpenAPI documents' enumerations once for the gateway and the simulator; this
 * holds each list to the document it copies (read in place), so a spec that gains or renames a value
 * fails here instead of going unnoticed on both sides at once.
 */
const schemas = (file: string) =>
  (JSON.parse(readSpec(file)) as { components: { schemas: Record<string, { enum?: string[] }> } })
    .components.schemas;
const data = schemas('data-api.openapi.json');
const metrics = schemas('metrics-api.openapi.json');

describe('src/spec equals the OpenAPI enumerations', () => {
  const cases: [string, readonly string[], string[] | undefined][] = [
    ['CurrencyCode', dataApi.CURRENCY_CODES, data.CurrencyCode?.enum],
    ['PChainTransactionType', dataApi.P_CHAIN_TX_TYPES, data.PChainTransactionType?.enum],
    ['PrimaryNetworkTxType', dataApi.PRIMARY_NETWORK_TX_TYPES, data.PrimaryNetworkTxType?.enum],
    ['SortByOption', dataApi.VALIDATOR_SORT_BY, data.SortByOption?.enum],
    ['ChainMetric', metricsApi.CHAIN_METRICS, metrics.ChainMetric?.enum],
    [
      'ChainRollingWindowMetric',
      metricsApi.ROLLING_WINDOW_METRICS,
      metrics.ChainRollingWindowMetric?.enum,
    ],
  ];
  for (const [name, ours, theirs] of cases)
    it(name, () => {
      expect(theirs, `${name} is not an enum of the spec`).toBeDefined();
      expect([...ours].sort()).toEqual([...theirs!].sort());
    });
});
