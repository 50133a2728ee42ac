import { describe, expect, it } from 'vitest';
import { composes } from './harness.js';
import { composesByAddress } from './judge.js';

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

  // Issue 31: seed oracle-4's `gen:chains` answers, cut to the fields that differ. A chain of the
  // `chains` list nests reads of their own (the address's Data API balance, its EVM state at the head,
  // the latest blocks): each may be as old as its class allows, beside the others.
  const block = (n: number, baseFee: string) => ({ node: { number: String(n), baseFee } });
  const chainAt = (
    balance: string,
    state: [string, string, string],
    blocks: [number, string][],
  ) => ({
    data: {
      chains: [
        {
          chainId: '43114',
          name: 'Avalanche (C-Chain)',
          enabledFeatures: [],
          address: {
            address: '0xa3851e56db57704a26d7939952f6c77b7de60b2f',
            balance: { balance, symbol: 'AVAX' },
            state: { blockNumber: state[0], balance: state[1], nonce: state[2] },
          },
          blocks: { edges: blocks.map(([n, f]) => block(n, f)), pageInfo: { hasNextPage: true } },
        },
      ],
    },
  });
  const w0 = chainAt(
    '97493319140680671995717',
    ['70000479', '97493319140680671995717', '1444'],
    [
      [70000479, '2116474802'],
      [70000478, '1741605531'],
    ],
  );
  const w1 = chainAt(
    '97444780009923891324968',
    ['70000481', '0', '1456'],
    [
      [70000481, '2317315321'],
      [70000480, '2171354785'],
    ],
  );
  const w2 = chainAt(
    '97384776834281909221251',
    ['70000483', '97384776834281909221251', '1468'],
    [
      [70000483, '3026014887'],
      [70000482, '1781536085'],
    ],
  );
  type Answer = ReturnType<typeof chainAt>;
  const mix = (f: (c: Answer['data']['chains'][0]) => void, base: Answer) => {
    const a = structuredClone(base);
    f(a.data.chains[0]!);
    return a;
  };

  it('accepts a list item whose nested reads are of different allowed versions (issue 31: state.balance "0", blocks.baseFee)', () => {
    // (a) the head state of v1 (the node said 0 at block 70000481) beside v2's Data API balance and blocks.
    const staleState = mix((c) => {
      c.address.state = w1.data.chains[0]!.address.state;
    }, w2);
    expect(composes(staleState, [w2, w1])).toBe(true);
    // (b) v0's latest blocks beside v1's address and state.
    const staleBlocks = mix((c) => {
      c.blocks = w0.data.chains[0]!.blocks;
    }, w1);
    expect(composes(staleBlocks, [w1, w0])).toBe(true);
  });

  it('still refuses a list item of no allowed version, a state mixing versions, and a page mixing versions', () => {
    expect(
      composes(
        mix((c) => {
          c.address.state = w0.data.chains[0]!.address.state;
        }, w2),
        [w2, w1],
      ),
    ).toBe(false);
    expect(
      composes(
        mix((c) => {
          c.address.state.balance = '0';
        }, w2),
        [w2, w1],
      ),
    ).toBe(false);
    expect(
      composes(
        mix((c) => {
          c.blocks.edges[1] = w1.data.chains[0]!.blocks.edges[1]!;
        }, w2),
        [w2, w1],
      ),
    ).toBe(false);
    expect(
      composes(
        mix((c) => {
          c.blocks.edges.reverse();
        }, w2),
        [w2, w1],
      ),
    ).toBe(false);
    expect(
      composes(
        mix((c) => {
          c.name = 'other';
        }, w2),
        [w2, w1],
      ),
    ).toBe(false);
    expect(
      composes(
        mix((c) => {
          c.blocks.edges.pop();
        }, w2),
        [w2, w1],
      ),
    ).toBe(false);
  });
});

/** Freshness by change: each address's own data judged by its own touches (`--touch` runs). */
describe('composesByAddress', () => {
  const at = (a: string, b: string, tip: string) => ({
    data: {
      tx: {
        hash: 'h',
        tip,
        from: { address: '0xAA', erc20: { edges: [{ node: { balance: a } }] } },
        to: { address: '0xbb', erc20: { edges: [{ node: { balance: b } }] } },
      },
    },
  });
  const v0 = at('1', '10', 'x');
  const v1 = at('2', '20', 'y');
  const addresses = new Set(['0xaa', '0xbb']);
  // 0xaa untouched since v0 (its entries may be v0's or v1's), 0xbb touched at v1 (only v1's).
  const of = (a: string) => (a === '0xaa' ? [v1, v0] : [v1]);

  it("accepts an untouched address's data kept beside a touched one's read again", () => {
    expect(composes(at('1', '20', 'y'), [v1])).toBe(false);
    expect(composesByAddress(at('1', '20', 'y'), [v1], addresses, of)).toBe(true);
  });

  it("refuses a touched address's data kept, and the rest of the answer at an older version", () => {
    expect(composesByAddress(at('2', '10', 'y'), [v1], addresses, of)).toBe(false);
    expect(composesByAddress(at('1', '20', 'x'), [v1], addresses, of)).toBe(false);
  });
});
