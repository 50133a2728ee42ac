import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { describe, expect, it } from 'vitest';
import { NO_DERIVATIONS } from '../../src/upstream/derivations.js';
import { cb58Encode } from '../../src/upstream/schemas/node-codec.js';
import {
  BlockDocument,
  ChainBlocksDocument,
  IcmMessagesDocument,
  IcmNodeDocument,
} from '../__generated__/graphql.js';
import { createTestGateway, useSimulator } from '../support/gateway.js';
import { allocateRedisDb } from '../support/redis-db.js';
import { flushRedisDb, simGet } from '../support/sim.js';
import { globalId, routeCalls, settle } from './primary-support.js';

/**
 * Facts, not requests: an answer that holds another route's answer exactly stores it under that
 * route's key, in the shared cache too, so a later read of it (in another request, on another replica)
 * costs nothing upstream. Each case reads the list on one gateway and the entity on a second one that
 * shares only Redis with it, and compares with what the upstream itself answers for the entity.
 */
const C = '43114';
const BLOCK_ROUTE = 'data-api GET /v1/chains/:chainId/blocks/:blockId';

let sim: RunningSimulator;
const { gateway } = useSimulator({}, (s) => {
  sim = s;
});

/** A Redis database of its own, empty. */
async function freshRedis(): Promise<string> {
  const url = await allocateRedisDb();
  await flushRedisDb(url);
  return url;
}

/** The C-Chain's transactions a few blocks below the head (indexed, final). */
function settledTransactions() {
  const chain = sim.world.chain(C)!;
  const head = chain.head().number;
  return chain.transactions.filter((t) => t.blockNumber < head - 5);
}

/** A plain transfer (21,000 gas, succeeded): the gateway derives its page from a list item. */
const isPlain = (t: ReturnType<typeof settledTransactions>[number]) =>
  t.gasUsed === 21_000 && t.status === 1;

describe('facts held by lists serve their entities across requests and replicas', () => {
  it('a block of a latest-blocks page is the block read by number or by hash', async () => {
    const redisUrl = await allocateRedisDb();
    await flushRedisDb(redisUrl);
    const a = gateway({ redisUrl });
    await a.ready();
    const listed = await a.exec(ChainBlocksDocument, { chainId: C, first: 5, txFirst: 0 });
    expect(listed.errors).toBeUndefined();
    await settle(a);
    const nodes = listed.data!.chain!.blocks!.edges.map((e) => e.node);
    const b = gateway({ redisUrl });
    const c = gateway({ redisUrl });
    await Promise.all([b.ready(), c.ready()]);
    sim.reset();
    // Blocks 0..3 of the list: each one's parent is the next one listed, a fact too.
    for (const n of nodes.slice(0, 4)) {
      const byNumber = await b.exec(BlockDocument, { chainId: C, id: n.number });
      const byHash = await c.exec(BlockDocument, { chainId: C, id: n.hash });
      expect(byNumber.errors).toBeUndefined();
      expect(byHash.data).toEqual(byNumber.data);
      const upstream = await simGet(sim.dataApiUrl, `/v1/chains/${C}/blocks/${n.number}`);
      expect(byNumber.data!.block).toMatchObject({
        number: upstream.blockNumber,
        hash: upstream.blockHash,
        parentHash: upstream.parentHash,
        txCount: upstream.txCount,
        feesSpent: upstream.feesSpent,
        cumulativeTransactions: upstream.cumulativeTransactions,
      });
    }
    // The simulator was asked for the blocks only by this test's own comparisons.
    expect(routeCalls(sim)).toEqual({ [BLOCK_ROUTE]: 4 });
  });

  it('an interchain message of an address list is the message read by id', async () => {
    const redisUrl = await allocateRedisDb();
    await flushRedisDb(redisUrl);
    const env = { ttlOverrides: { head: 60_000 } };
    const a = createTestGateway(sim, { redisUrl, ...env });
    await a.ready();
    const address = sim.world.fixtures.icmAddress;
    const listed = await a.exec(IcmMessagesDocument, { address, first: 5 });
    expect(listed.errors).toBeUndefined();
    await settle(a);
    const b = createTestGateway(sim, { redisUrl, ...env });
    const reference = createTestGateway(sim);
    await b.ready();
    sim.reset();
    for (const { node } of listed.data!.icmMessages!.edges) {
      const id = globalId('IcmMessage', node.messageId);
      const derived = await b.exec(IcmNodeDocument, { id });
      expect(derived.errors).toBeUndefined();
      expect(derived.data!.node).toEqual(node);
    }
    expect(routeCalls(sim)).toEqual({});
    // And what the upstream answers by id is the same message.
    for (const { node } of listed.data!.icmMessages!.edges) {
      const direct = await reference.exec(IcmNodeDocument, {
        id: globalId('IcmMessage', node.messageId),
      });
      expect(direct.data!.node).toEqual(node);
    }
    await Promise.all([a.close(), b.close(), reference.close()]);
  });

  it('a plain transfer of a block list is its transaction page; a contract call still reads its own', async () => {
    const redisUrl = await freshRedis();
    // A block below the head holding both a plain transfer and a contract call.
    const txs = settledTransactions();
    const block = [...new Set(txs.map((t) => t.blockNumber))].find((n) => {
      const inBlock = txs.filter((t) => t.blockNumber === n);
      return (
        inBlock.length <= 25 &&
        inBlock.some(isPlain) &&
        inBlock.some((t) => t.gasUsed !== 21_000 && t.erc20.length > 0)
      );
    })!;
    const inBlock = txs.filter((t) => t.blockNumber === block);
    const plain = inBlock.find(isPlain)!;
    const call = inBlock.find((t) => t.gasUsed !== 21_000 && t.erc20.length > 0)!;

    const a = gateway({ redisUrl });
    await a.ready();
    sim.reset();
    const listed = await a.query(BLOCK_TXS, { chainId: C, id: String(block) });
    expect(listed.errors).toBeUndefined();
    await settle(a);
    // The list's plain transfers answered their call data, transfers and internal transactions without
    // their pages; the contract calls read theirs.
    const calls = routeCalls(sim)[TX_ROUTE] ?? 0;
    expect(calls).toBe(inBlock.filter((t) => !isPlain(t)).length);

    const b = gateway({ redisUrl });
    const reference = createTestGateway(sim, { derivations: NO_DERIVATIONS });
    await b.ready();
    sim.reset();
    const derived = await b.query(TX_PAGE, { chainId: C, hash: plain.hash });
    expect(derived.errors).toBeUndefined();
    expect(routeCalls(sim)).toEqual({});
    const truth = await reference.query(TX_PAGE, { chainId: C, hash: plain.hash });
    expect(routeCalls(sim)).toEqual({ [TX_ROUTE]: 1 });
    expect(derived.data).toEqual(truth.data);
    expect(derived.data).toMatchObject({
      transaction: {
        input: '0x',
        erc20Transfers: [],
        internalTransactions: [],
        icmMessageInfo: null,
      },
    });
    // The list item is the list's own answer for it.
    const item = (listed.data as any).block.transactions.edges.find(
      (e: any) => e.node.hash === plain.hash,
    ).node;
    expect(item).toEqual((truth.data as any).transaction);

    // A contract call of the same list was read from its page by the list (above), and that page
    // answers it on the other replica.
    sim.reset();
    const called = await b.query(TX_PAGE, { chainId: C, hash: call.hash });
    expect(routeCalls(sim)).toEqual({});
    expect(called.data).toEqual(
      (await reference.query(TX_PAGE, { chainId: C, hash: call.hash })).data,
    );
    expect((called.data as any).transaction.erc20Transfers.length).toBe(call.erc20.length);
    await Promise.all([a.close(), b.close(), reference.close()]);
  });

  it('a list stores the plain transfers it showed, not every one of its page', async () => {
    const redisUrl = await freshRedis();
    // A block below the head whose plain transfer is not its first transaction (block order).
    const txs = settledTransactions();
    const block = [...new Set(txs.map((t) => t.blockNumber))].find((n) => {
      const inBlock = txs.filter((t) => t.blockNumber === n);
      return inBlock.length <= 25 && inBlock.slice(1).some(isPlain);
    })!;
    const inBlock = txs.filter((t) => t.blockNumber === block);
    const at = inBlock.findIndex((t, i) => i > 0 && isPlain(t));
    const plain = inBlock[at]!;
    const list = (first: number) => `{ block(chainId: "${C}", id: "${block}") {
      transactions(first: ${first}) { edges { node { hash } } } } }`;

    // Shown the transactions before it: the page holds it, but its fact is not stored.
    const a = gateway({ redisUrl });
    await a.ready();
    const before = await a.query(list(at));
    expect(
      (before.data as any).block.transactions.edges.map((e: any) => e.node.hash),
    ).not.toContain(plain.hash);
    await settle(a);
    const b = gateway({ redisUrl });
    await b.ready();
    sim.reset();
    expect((await b.query(TX_PAGE, { chainId: C, hash: plain.hash })).errors).toBeUndefined();
    expect(routeCalls(sim)).toEqual({ [TX_ROUTE]: 1 });
    // Shown it (the page now from the cache): its fact is stored, and another replica reads it.
    const other = await freshRedis();
    const c = gateway({ redisUrl: other });
    const d = gateway({ redisUrl: other });
    await Promise.all([c.ready(), d.ready()]);
    await c.query(list(at));
    await c.query(list(at + 1));
    await settle(c);
    sim.reset();
    const derived = await d.query(TX_PAGE, { chainId: C, hash: plain.hash });
    expect(routeCalls(sim)).toEqual({});
    expect(derived.data).toEqual((await b.query(TX_PAGE, { chainId: C, hash: plain.hash })).data);
    await Promise.all([a.close(), b.close(), c.close(), d.close()]);
  });

  it("an address's native list stores the plain transfers it showed, for another replica", async () => {
    const redisUrl = await freshRedis();
    const txs = settledTransactions();
    // A plain transfer of a sender with few transactions: its native list's first page shows it.
    const involving = (a: string) =>
      txs.filter((t) => t.from.toLowerCase() === a || t.to.toLowerCase() === a).length;
    const plain = txs.find((t) => isPlain(t) && involving(t.from.toLowerCase()) <= 20)!;
    const a = gateway({ redisUrl });
    const b = gateway({ redisUrl });
    await Promise.all([a.ready(), b.ready()]);
    const listed = await a.query(`{ address(chainId: "${C}", address: "${plain.from}") {
      nativeTransactions(first: 25) { edges { node { hash } } } } }`);
    expect(
      (listed.data as any).address.nativeTransactions.edges.map((e: any) => e.node.hash),
    ).toContain(plain.hash);
    await settle(a);
    sim.reset();
    const derived = await b.query(TX_PAGE, { chainId: C, hash: plain.hash });
    expect(derived.errors).toBeUndefined();
    expect(routeCalls(sim)).toEqual({});
    const reference = createTestGateway(sim, { derivations: NO_DERIVATIONS });
    expect(derived.data).toEqual(
      (await reference.query(TX_PAGE, { chainId: C, hash: plain.hash })).data,
    );
    await Promise.all([a.close(), b.close(), reference.close()]);
  });

  it('nodes with no stake now have no pending rewards: their validators list says so, the rewards route is not read', async () => {
    // Node ids by their validations' statuses, as the upstream lists them now.
    const statuses = async () => {
      const by = new Map<string, Set<string>>();
      let pageToken: string | undefined;
      do {
        // Every uptime: the route's default leaves out active validators under 90 %.
        const page = await simGet(sim.dataApiUrl, '/v1/networks/mainnet/validators', {
          pageSize: 100,
          minUptimePerformance: 0,
          pageToken,
        });
        for (const v of page.validators)
          by.set(v.nodeId, (by.get(v.nodeId) ?? new Set()).add(v.validationStatus));
        pageToken = page.nextPageToken;
      } while (pageToken);
      return by;
    };
    const staked = (s: Set<string>) => s.has('active') || s.has('pending');
    // World steps end validations until some node has none left active or pending.
    let by = await statuses();
    for (let i = 0; i < 20 && [...by.values()].every(staked); i++) {
      await fetch(`${sim.url}/_sim/advance`, { method: 'POST', body: '{}' });
      by = await statuses();
    }
    const ended = [...by].find(([, s]) => !staked(s))?.[0];
    const active = [...by].find(([, s]) => s.has('active'))?.[0];
    expect(ended && active).toBeDefined();
    // A well-formed node id the network never saw (the bench's population has thousands).
    const unknown = `NodeID-${cb58Encode(new Uint8Array(20).fill(7))}`;
    const gw = gateway();
    const reference = createTestGateway(sim, { derivations: NO_DERIVATIONS });
    for (const [nodeIds, reads] of [
      [[unknown], 0],
      [[ended!], 0],
      [[unknown, ended!], 0],
      [[active!], 1],
      [[unknown, active!], 1],
    ] as const) {
      sim.reset();
      const r = await gw.query(PENDING, { nodeIds });
      expect(r.errors).toBeUndefined();
      expect(routeCalls(sim)[PENDING_ROUTE] ?? 0).toBe(reads);
      expect(routeCalls(sim)[VALIDATORS_ROUTE]).toBe(1);
      // The upstream's own answer for the same nodes.
      expect(r.data).toEqual((await reference.query(PENDING, { nodeIds })).data);
      if (reads === 0) expect((r.data as any).network.pendingRewards.edges).toEqual([]);
    }
    // Asked with addresses, the rewards route is read as before (no validators list tells of them).
    sim.reset();
    const byAddress = await gw.query(PENDING_OF, { addresses: [sim.world.fixtures.pChainAddress] });
    expect(byAddress.errors).toBeUndefined();
    expect(routeCalls(sim)).toEqual({ [PENDING_ROUTE]: 1 });
    await reference.close();
  });
});

const TX_ROUTE = 'data-api GET /v1/chains/:chainId/transactions/:txHash';
const TX_FIELDS = `hash status blockNumber blockHash from { address } to { address } value gasLimit gasUsed
  gasPrice nonce type method { callType methodHash } input icmMessageInfo { messageId }
  erc20Transfers { logIndex value from { address } to { address } }
  internalTransactions { value from { address } to { address } }`;
const BLOCK_TXS = `query ($chainId: String!, $id: String!) {
  block(chainId: $chainId, id: $id) { transactions(first: 25) { edges { node { ${TX_FIELDS} } } } }
}`;
const TX_PAGE = `query ($chainId: String!, $hash: String!) {
  transaction(chainId: $chainId, hash: $hash) { ${TX_FIELDS} }
}`;
const PENDING_ROUTE = 'data-api GET /v1/networks/:network/rewards:listPending';
const VALIDATORS_ROUTE = 'data-api GET /v1/networks/:network/validators';
const PENDING = `query ($nodeIds: [String!]) {
  network(name: "mainnet") {
    pendingRewards(nodeIds: $nodeIds, first: 20) { edges { node { txHash nodeId amountStaked progress rewardType } } }
  }
}`;
const PENDING_OF = `query ($addresses: [String!]) {
  network(name: "mainnet") { pendingRewards(addresses: $addresses, first: 20) { edges { node { txHash } } } }
}`;
