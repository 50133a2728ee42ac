import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { describe, expect, it } from 'vitest';
import { differentialSteps, overspends } from '../support/cost-differential.js';
import { type TestGateway, useSimAndGateway } from '../support/gateway.js';

/**
 * Issue 42, "Must show": the estimate is a promise. Every shipped operation at its largest `first` and a
 * generated query per root field (every field within depth 3, each reached through a list) run against
 * the simulator with cold caches: none may spend more compute units than it was estimated at, nor be
 * refused by its allowance. (The planted defect that this check must catch:
 * cost-differential-planted.test.ts.)
 */
let sim: RunningSimulator;
let gw: TestGateway;
useSimAndGateway({ gateway: { env: { MAX_QUERY_COST: '100000000' } } }, (s, g) => {
  sim = s;
  gw = g;
});

describe('differential pricing: spend never exceeds the estimate', () => {
  it('every shipped operation and every generated field, cold; and no EVM address in checksum case', async () => {
    const steps = differentialSteps(sim);
    expect(steps.length).toBeGreaterThan(30);
    // Issue 44: EVM addresses in lower case everywhere (docs/schema-conventions.md). The simulator
    // answers the Data API's checksum case, so any field passing one through is found here.
    const checksummed = new Set<string>();
    const onAnswer = (step: string, answer: unknown) => {
      for (const m of JSON.stringify(answer).matchAll(/"(0x[0-9a-fA-F]{40})"/g))
        if (m[1] !== m[1]!.toLowerCase()) checksummed.add(`${step}: ${m[1]}`);
    };
    expect(await overspends(gw, steps, onAnswer)).toEqual([]);
    expect([...checksummed].slice(0, 10)).toEqual([]);
  }, 120_000);
});
