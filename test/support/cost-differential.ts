import { readFileSync } from 'node:fs';
import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { Rng } from '@avalanche-gateway/simulator/world/prng.js';
import { buildSchema, type GraphQLInputType } from 'graphql';
import type { MemoryStore } from '../../src/cache/store.js';
import {
  type ArgValues,
  argValues,
  generatedSteps,
  operationSteps,
  type Step,
} from '../oracle/workload.js';
import { extraSteps, worldIds } from '../oracle/workload-extra.js';
import type { TestGateway } from './gateway.js';

/**
 * The differential pricing check (issue 42, "Must show"): a step is run against the simulator with the
 * gateway's caches cold, and what its upstream calls spent (`extensions.cost.spentCu`, the request scope's
 * `upstreamCu`) is compared with its estimate (`extensions.cost.estimatedCU`). A step over its estimate,
 * or one whose calls the request's allowance refused (`extensions.budget: 'request-allowance'`: it would
 * have spent past the estimate's margin), is a pricing defect.
 */
export interface Overspend {
  step: string;
  estimated: number;
  spent: number;
  refused: number;
}

/** Items asked of the outermost list of a step (above one upstream page of 100: two pages). */
export const LARGE_FIRST = 120;
/** Items asked of a list nested in a list (a generated selection's inner `first`). */
export const NESTED_FIRST = 6;

/** The workload's argument values, with `first` at its large value. */
function largeArgs(sim: RunningSimulator): ArgValues {
  const base = argValues(sim.world.fixtures, {
    selfNodeId: sim.world.selfNodeId,
    seed: 'cost-differential',
    ids: worldIds(sim.world),
  });
  return {
    get: (name: string, op: string, type: GraphQLInputType) =>
      name === 'first' || name === 'txFirst' ? LARGE_FIRST : base.get(name, op, type),
  };
}

/**
 * Every step: each query of schema/operations (its `first` at LARGE_FIRST), one generated query per root
 * field (every field within depth 3 whose arguments can be filled, each inner list at NESTED_FIRST and
 * the outermost at LARGE_FIRST), and the oracle's hand-written steps for what generation cannot reach.
 */
export function differentialSteps(sim: RunningSimulator): Step[] {
  const schema = buildSchema(
    readFileSync(new URL('../../schema/schema.graphql', import.meta.url), 'utf8'),
  );
  const args = largeArgs(sim);
  const ops = operationSteps(schema, args, () => [], new Rng('cost-differential')).steps;
  const generated = generatedSteps(schema, args).map((s) => ({
    ...s,
    // The generator asks two items of every list: the first list (outermost) gets many, inner ones some.
    query: s.query
      .replace('first: 2', `first: ${LARGE_FIRST}`)
      .replaceAll('first: 2', `first: ${NESTED_FIRST}`),
  }));
  return [...ops, ...generated, ...extraSteps(schema, args, sim.world)];
}

/** Runs each step with cold caches; the steps whose spend went past their estimate. */
export async function overspends(
  gw: TestGateway,
  steps: Step[],
  /** Told each step's answer (the same run checks other promises of every answer). */
  onAnswer?: (step: string, answer: unknown) => void,
): Promise<Overspend[]> {
  const out: Overspend[] = [];
  for (const s of steps) {
    await gw.settled();
    (gw.store as MemoryStore).clear();
    const r = (await gw.query(s.query, s.variables)) as {
      errors?: { extensions?: Record<string, unknown> }[];
      extensions?: { cost?: { estimatedCU?: number; spentCu?: number } };
    };
    onAnswer?.(s.name, r);
    const estimated = r.extensions?.cost?.estimatedCU ?? 0;
    const spent = r.extensions?.cost?.spentCu ?? 0;
    const refused = (r.errors ?? []).filter(
      (e) => e.extensions?.budget === 'request-allowance',
    ).length;
    if (spent > estimated || refused > 0) out.push({ step: s.name, estimated, spent, refused });
  }
  return out;
}
