import { describe, expect, it } from 'vitest';
import { OperationLabels, OTHER_OPERATION } from '../../src/telemetry/operation-labels.js';
import { useSimulator } from '../support/gateway.js';

/**
 * Per-operation metrics with bounded cardinality (issue 45, item 3): the request metrics carry the
 * operation's name for persisted and named operations and `other` for the rest, and a client sending
 * 10,000 distinct names cannot add 10,000 series (the label's bound, then 1,000 names through a gateway).
 */
const { gateway } = useSimulator({});

const seriesOf = async (
  g: { metrics: { registry: { getSingleMetric(n: string): any } } },
  name: string,
) =>
  (await g.metrics.registry.getSingleMetric(name).get()).values as {
    labels: Record<string, string>;
  }[];

describe('the operation label', () => {
  it('10,000 distinct names from one client: at most the bound of label values', () => {
    const labels = new OperationLabels(100);
    labels.always(() => new Set(['Persisted']));
    const values = new Set<string>();
    for (let i = 0; i < 10_000; i++) values.add(labels.label(`Name${i}`));
    values.add(labels.label('Persisted'));
    values.add(labels.label(undefined));
    values.add(labels.label('not a name!'));
    expect(values.size).toBe(100 + 2);
    expect(values.has('Persisted')).toBe(true);
    expect(values.has(OTHER_OPERATION)).toBe(true);
  });

  it('1,000 distinct operation names through the gateway add at most the bound of series; persisted names are always named', async () => {
    const g = gateway({ env: { PERSISTED_OPERATIONS: 'allow' } });
    for (let i = 0; i < 1_000; i += 200)
      await Promise.all(
        Array.from({ length: 200 }, (_, j) => g.query(`query Junk${i + j} { __typename }`)),
      );
    // A shipped (persisted) operation, after the flood: still under its own name.
    const persisted = await g.query(`query Chains { chains { chainId } }`);
    expect(persisted.errors).toBeUndefined();
    await g.query('{ __typename }');
    await g.query('query { nope }');
    const durations = await seriesOf(g, 'gateway_graphql_request_duration_seconds');
    const operations = new Set(durations.map((v) => v.labels.operation));
    expect(operations.size).toBeLessThanOrEqual(g.metrics.operations.max + 2);
    expect(operations.has('Chains')).toBe(true);
    expect(operations.has(OTHER_OPERATION)).toBe(true);
    expect(operations.has('Junk0')).toBe(true);
    expect(operations.has('Junk999')).toBe(false);
    // Errors by operation and code, with the same bounded label.
    const errors = await seriesOf(g, 'gateway_graphql_errors_total');
    expect(errors.map((v) => v.labels)).toContainEqual({
      operation: OTHER_OPERATION,
      code: 'GRAPHQL_VALIDATION_FAILED',
    });
  }, 120_000);
});
