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
  it('every shipped operation and every generated field, cold', async () => {
    const steps = differentialSteps(sim);
    expect(steps.length).toBeGreaterThan(30);
    expect(await overspends(gw, steps)).toEqual([]);
  }, 120_000);
});
