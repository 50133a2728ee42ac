import { readFileSync } from 'node:fs';
import { createWorld } from '@avalanche-gateway/simulator';
import { Rng } from '@avalanche-gateway/simulator/world/prng.js';
import {
  buildSchema,
  getNamedType,
  isObjectType,
  parse,
  TypeInfo,
  visit,
  visitWithTypeInfo,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { argValues, generatedSteps, nodeSteps, operationSteps } from './workload.js';
import { extraSteps, worldIds } from './workload-extra.js';

/**
 * What the graph serves enters the oracle's workload the day it lands: every root field, every
 * connection type and every field of the EVM state types is selected by some step, and every query
 * operation of schema/operations finds a value for each required variable (none is skipped). Walks
 * the printed schema, so a new root field or connection fails here until the workload reaches it.
 */
const schema = buildSchema(
  readFileSync(new URL('../../schema/schema.graphql', import.meta.url), 'utf8'),
);
const world = createWorld({ seed: 'oracle-1' });
const args = argValues(world.fixtures, {
  selfNodeId: world.selfNodeId,
  seed: 'oracle-1',
  ids: worldIds(world),
});
// The harness harvests global ids from answers; one stands for them here.
const ops = operationSteps(schema, args, () => ['Q2hhaW46NDMxMTQ'], new Rng('coverage'));
const steps = [
  ...ops.steps,
  ...generatedSteps(schema, args),
  ...extraSteps(schema, args, world),
  ...nodeSteps(schema, ['Q2hhaW46NDMxMTQ']),
];

const selected = new Set<string>();
const types = new Set<string>();
for (const s of steps) {
  const info = new TypeInfo(schema);
  visit(
    parse(s.query),
    visitWithTypeInfo(info, {
      Field() {
        const parent = info.getParentType();
        const field = info.getFieldDef();
        if (!parent || !field) return;
        selected.add(`${parent.name}.${field.name}`);
        types.add(getNamedType(field.type).name);
      },
    }),
  );
}

describe('the oracle’s workload covers the graph', () => {
  it('every query operation has a value for each required variable', () => {
    expect(ops.skipped).toEqual([]);
  });

  it('every root field is selected by a step', () => {
    const roots = Object.keys(schema.getQueryType()!.getFields());
    expect(roots.filter((r) => !selected.has(`Query.${r}`))).toEqual([]);
  });

  it('every connection type is selected by a step', () => {
    const connections = Object.values(schema.getTypeMap())
      .filter((t) => isObjectType(t) && t.name.endsWith('Connection'))
      .map((t) => t.name);
    expect(connections.length).toBeGreaterThan(40);
    expect(connections.filter((c) => !types.has(c))).toEqual([]);
  });

  it('issue 44’s new references are selected: Transaction.logs and Validator.delegators', () => {
    expect(
      [...selected].filter((f) => ['Transaction.logs', 'Validator.delegators'].includes(f)),
    ).toEqual(expect.arrayContaining(['Transaction.logs', 'Validator.delegators']));
  });

  it('every field of the EVM state types is selected (at latest and at a named block)', () => {
    const evm = [
      'EvmState',
      'EvmAccountState',
      'Erc20Reads',
      'EvmAccountProof',
      'EvmStorageProof',
      'EvmFeeHistory',
      'EvmBlockRewards',
      'EvmLog',
    ];
    const missing = evm.flatMap((t) => {
      const type = schema.getType(t);
      if (!type || !isObjectType(type)) return [`${t} (no such type)`];
      return Object.keys(type.getFields())
        .map((f) => `${t}.${f}`)
        .filter((f) => !selected.has(f));
    });
    expect(missing).toEqual([]);
    const names = steps.map((s) => s.name);
    expect(names).toEqual(
      expect.arrayContaining(['x:evmState.latest', 'x:evmState.number', 'x:evmState.hash']),
    );
  });
});
