import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { describe, expect, it } from 'vitest';
import { useSimulator } from '../support/gateway.js';
import { eventually } from '../support/live-clients.js';

/**
 * `cChain.latestBlock` is the node's head; the Data API indexes a few blocks behind the node (the
 * simulator's SIM_INDEX_LAG_BLOCKS). Found with the lagging simulator: the head was a NOT_FOUND until the
 * Data API caught up; it is now the node's header, whose fields only the index has answer NOT_FOUND.
 */
let sim: RunningSimulator;
const { gateway } = useSimulator({ indexLagBlocks: 3 }, (s) => {
  sim = s;
});

type SimHead = ReturnType<NonNullable<ReturnType<RunningSimulator['world']['chain']>>['head']>;
/** The fields a block built from the node's header has, as the gateway answers them. */
const headerFields = (head: SimHead) => ({
  number: String(head.number),
  hash: head.hash,
  parentHash: head.parentHash,
  timestamp: head.timestamp,
  gasUsed: String(head.gasUsed),
  gasLimit: String(head.gasLimit),
  txCount: head.txCount,
});

const QUERY = `{ networkNode { cChain { blockNumber latestBlock {
  number hash parentHash timestamp gasUsed gasLimit baseFee txCount } } } }`;

describe('cChain.latestBlock while the Data API trails the node', () => {
  it('is the node’s head from its header, the index-only fields NOT_FOUND, then the indexed block', async () => {
    const gw = gateway();
    const head = sim.world.chain('43114')!.head();
    const r = await gw.query(QUERY);
    const b = r.data!.networkNode.cChain.latestBlock;
    expect(r.data!.networkNode.cChain.blockNumber).toBe(String(head.number));
    expect(b).toMatchObject({ ...headerFields(head), baseFee: head.baseFee.toString() });
    expect(r.errors).toBeUndefined();
    // What only the index has is the Data API's NOT_FOUND, never a made-up zero.
    const fees = await gw.query('{ networkNode { cChain { latestBlock { number feesSpent } } } }');
    expect(fees.errors?.map((e) => [e.path?.join('.'), e.extensions?.code])).toEqual([
      ['networkNode.cChain.latestBlock.feesSpent', 'NOT_FOUND'],
    ]);
    // A block the Data API has indexed is its own, whole.
    const indexed = sim.indexed.chain('43114')!.head();
    const old = await gw.query(
      `{ block(chainId: "43114", id: "${indexed.number}") { hash feesSpent } }`,
    );
    expect(old.errors).toBeUndefined();
    expect(old.data!.block).toEqual({
      hash: indexed.hash,
      feesSpent: indexed.feesSpent.toString(),
    });
  });
});

describe('block(id) of a head the Data API has not indexed yet, on a followed chain', () => {
  it('is the header the feed read, at no upstream cost; what only the index has answers NOT_INDEXED', async () => {
    const gw = gateway({ env: { LIVE_WS: `43114=${sim.wsUrl}` } });
    await gw.ready();
    const head = sim.world.chain('43114')!.head();
    await eventually(() => expect(gw.live!.head('43114')?.number).toBe(String(head.number)));
    expect(sim.indexed.chain('43114')!.head().number).toBeLessThan(head.number);
    sim.reset();
    const fields = 'number hash parentHash timestamp gasUsed gasLimit txCount';
    for (const id of [String(head.number), head.hash.toUpperCase().replace('0X', '0x')]) {
      const r = await gw.query(`{ block(chainId: "43114", id: "${id}") { ${fields} } }`);
      // Before: a NOT_FOUND for a block the client had just been told about.
      expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
      expect(r.data!.block).toEqual(headerFields(head));
    }
    // The header is the feed's: only the Data API's own 404s were asked.
    expect(Object.keys(sim.stats().byRoute).filter((r) => !r.startsWith('data-api'))).toEqual([]);
    const fees = await gw.query(`{ block(chainId: "43114", id: "${head.number}") { feesSpent } }`);
    expect(fees.errors?.map((e) => [e.extensions?.code, e.extensions?.reason])).toEqual([
      ['NOT_FOUND', 'NOT_INDEXED'],
    ]);
    // A number the chain has not reached is still NOT_FOUND, with no header made up.
    const ahead = await gw.query(
      `{ block(chainId: "43114", id: "${head.number + 5}") { number } }`,
    );
    expect(ahead.data?.block).toBeNull();
    expect(ahead.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});
