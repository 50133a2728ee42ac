import { describe, expect, it } from 'vitest';
import { accessorLiterals, accessorLiteralsIn } from '../../scripts/lint-accessors.js';

/**
 * The accessor rule is a lint script (`npm run lint:accessors`, part of `npm run lint`:
 * scripts/lint-accessors.ts says why); this is its self-test.
 */
describe('accessors in object literals (scripts/lint-accessors.ts)', () => {
  it('are found by the check (a literal getter and setter; class accessors are not)', () => {
    const sample = `
      const page = { edges: [], get endCursor() { return null; }, set x(v) {} };
      class Kept { get startCursor() { return null; } }`;
    expect(accessorLiteralsIn('sample.ts', sample)).toEqual(['sample.ts:2', 'sample.ts:2']);
  });

  it('appear nowhere in the gateway’s sources', () => {
    expect(accessorLiterals('src')).toEqual([]);
  });
});
