import { describe, expect, it } from 'vitest';
import { etagOf } from '../../src/cache/http-freshness.js';

/** The weak ETag names the answer (data and errors), not the request's extensions. */
describe('etagOf', () => {
  const data = { block: { number: '7', note: 'a string with ,"extensions":{"x":1} inside' } };

  it('ignores extensions, whatever they hold, and the body is hashed without being written again', () => {
    const bare = JSON.stringify({ data });
    const withCost = JSON.stringify({ data, extensions: { cost: { estimatedCU: 3 } } });
    const withCache = JSON.stringify({ data, extensions: { cache: { stale: false }, n: [1, 2] } });
    expect(etagOf(withCost)).toBe(etagOf(bare));
    expect(etagOf(withCache)).toBe(etagOf(bare));
    expect(etagOf(bare)).toMatch(/^W\/"[\w-]{27}"$/);
  });

  it('another answer is another tag; errors count', () => {
    const a = JSON.stringify({ data, extensions: { cost: 1 } });
    const b = JSON.stringify({ data: { block: { number: '8' } }, extensions: { cost: 1 } });
    const withErrors = JSON.stringify({
      errors: [{ message: 'x', path: ['block'] }],
      data: { block: null },
      extensions: { cost: 1 },
    });
    const otherErrors = JSON.stringify({
      errors: [{ message: 'y', path: ['block'] }],
      data: { block: null },
      extensions: { cost: 1 },
    });
    expect(etagOf(a)).not.toBe(etagOf(b));
    expect(etagOf(withErrors)).not.toBe(etagOf(otherErrors));
  });

  it('a body that is not a GraphQL answer is hashed as it is', () => {
    expect(etagOf('not json')).toBe(etagOf('not json'));
    expect(etagOf('not json')).not.toBe(etagOf('other'));
  });
});
