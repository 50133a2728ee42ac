import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { fragmentsOf, pickOperation, walkSelections } from '../../src/schema/selections.js';

const doc = parse(`
  query A { block { number ...F ... on Block { hash } } }
  query B { __typename }
  fragment F on Block { parentHash ...G }
  fragment G on Block { gasUsed ...F }
`);

/** The fields one walk sees (name@type), entering each fragment once. */
function seenFields(): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const block = pickOperation(doc, 'A')!.selectionSet.selections[0]!;
  if (block.kind !== 'Field') throw new Error('not a field');
  walkSelections(block.selectionSet, 'Block', fragmentsOf(doc), {
    field: (node, on) => out.push(`${node.name.value}@${on}`),
    enter: (fragment) =>
      !seen.has(fragment.name.value) && seen.add(fragment.name.value) !== undefined,
  });
  return out;
}

describe('the shared selection walk', () => {
  it('flattens inline and named fragments, each field with the type it is selected on', () => {
    expect(seenFields()).toEqual([
      'number@Block',
      'parentHash@Block',
      'gasUsed@Block',
      'hash@Block',
    ]);
  });

  it('stops at a fragment the visitor refuses, so a cycle ends', () => {
    let entered = 0;
    const f = fragmentsOf(doc)('F')!;
    walkSelections(f.selectionSet, 'Block', fragmentsOf(doc), {
      field: () => {},
      enter: () => ++entered < 5,
    });
    expect(entered).toBe(5);
  });

  it('picks the named operation, or the only one', () => {
    expect(pickOperation(doc, 'B')?.name?.value).toBe('B');
    expect(pickOperation(doc, undefined)).toBeUndefined();
    expect(pickOperation(parse('{ a }'), undefined)?.operation).toBe('query');
  });
});
