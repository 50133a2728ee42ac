import { describe, expect, it } from 'vitest';
import { composes } from './harness.js';

/** The oracle's rule for answers that join resources of different (allowed) world versions. */
describe('composes', () => {
  const v0 = {
    data: { tx: { hash: 'a', price: '1.0', chain: { blocks: { edges: [{ n: 10, fee: 5 }] } } } },
  };
  const v1 = {
    data: { tx: { hash: 'a', price: '2.0', chain: { blocks: { edges: [{ n: 11, fee: 7 }] } } } },
  };

  it('accepts one version whole, or resources of different versions side by side', () => {
    expect(composes(v0, [v0, v1])).toBe(true);
    expect(
      composes(
        {
          data: {
            tx: { hash: 'a', price: '2.0', chain: { blocks: { edges: [{ n: 10, fee: 5 }] } } },
          },
        },
        [v0, v1],
      ),
    ).toBe(true);
  });

  it('refuses an entity whose fields mix versions, a list that mixes pages, and a value of no allowed version', () => {
    const mixedEntityList = {
      data: { tx: { hash: 'a', price: '2.0', chain: { blocks: { edges: [{ n: 11, fee: 5 }] } } } },
    };
    expect(composes(mixedEntityList, [v0, v1])).toBe(false);
    const tooOld = {
      data: { tx: { hash: 'a', price: '0.5', chain: { blocks: { edges: [{ n: 10, fee: 5 }] } } } },
    };
    expect(composes(tooOld, [v0, v1])).toBe(false);
    expect(composes(v0, [v1])).toBe(false);
  });
});
