import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestGateway } from '../support/gateway.js';
import { eventually, sseSubscribe, wsSubscribe } from '../support/live-clients.js';
import { allocateRedisDb } from '../support/redis-db.js';
import { type Replica, startHaproxy, startReplica } from '../support/replicas.js';
import { startTestSimulator } from '../support/sim.js';

/**
 * Three gateway processes over one Redis behind HAProxy (Debian's package), against the simulator:
 * cold misses coalesced across processes, one upstream websocket for everyone, a takeover when its
 * holder dies, and head-keyed freshness on every replica.
 */
const LOCK_TTL_MS = 1_000;
/** Stated bound: a dead holder's lock lapses within LOCK_TTL_MS; a follower retries every third of it. */
const TAKEOVER_BOUND_MS = 3 * LOCK_TTL_MS + 2_000;

let sim: RunningSimulator;
let replicas: Replica[] = [];
let lb: { url: string; stop(): Promise<void> };
let redisUrl: string;

const dataApiCalls = () =>
  Object.fromEntries(Object.entries(sim.stats().byRoute).filter(([k]) => k.startsWith('data-api')));
const advance = async (blocks = 1) =>
  (
    (await (
      await fetch(`${sim.url}/_sim/advance`, {
        method: 'POST',
        body: JSON.stringify({ chainId: '43114', blocks, evolve: false }),
      })
    ).json()) as { head: { number: number; hash: string } }
  ).head;
const socketsOf = async (r: Replica) => {
  const text = await (await fetch(`${r.url}/metrics`)).text();
  return Number(/^gateway_live_upstream_sockets (\d+)/m.exec(text)?.[1] ?? 0);
};
const post = (url: string, query: string) =>
  fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  }).then((r) => r.json() as Promise<any>);

beforeAll(async () => {
  sim = await startTestSimulator();
  redisUrl = await allocateRedisDb();
  const env = {
    DATA_API_URL: sim.dataApiUrl,
    METRICS_API_URL: sim.metricsApiUrl,
    NODE_RPC_URL: sim.nodeUrl,
    REDIS_URL: redisUrl,
    LIVE_WS: `43114=${sim.wsUrl}`,
    LIVE_LOCK_TTL_MS: String(LOCK_TTL_MS),
    CLIENT_BUDGET_PER_MINUTE: '0',
    // Every test client is one address: it may hold all the sockets the run opens.
    WS_MAX_PER_CLIENT: '10000',
    UPSTREAM_CU_PER_MINUTE: '0',
    REDIS_COMMAND_TIMEOUT_MS: '2000',
  };
  replicas = await Promise.all([startReplica(env), startReplica(env), startReplica(env)]);
  lb = await startHaproxy(replicas);
  await eventually(async () => expect(sim.socketStats().subscriptions).toBe(1), 15_000);
  // The holder has published the node's current head: subscribers from now on get the blocks after it.
  const redis = new Redis(redisUrl);
  const current = String(sim.world.chain('43114')!.head().number);
  await eventually(
    async () => expect(await redis.hget('gw:live:{43114}:last', 'n')).toBe(current),
    15_000,
  );
  redis.disconnect();
  // Every replica follows that head (it has heard the holder's beat, so its head-class entries are
  // keyed by it): a replica that has not yet would read and lease apart from the others. Probed on a
  // head-class list the tests below do not read (the latest transactions), each probe a new text so
  // no replica answers it from the shared whole-response cache.
  let probes = 0;
  await eventually(
    async () => {
      for (const r of replicas) {
        const probe = await post(
          r.url,
          `{ p${probes++}: chain(id: "43114") { transactions(first: 1) { edges { node { hash } } } } }`,
        );
        expect(JSON.stringify(probe.extensions?.heads ?? null)).toContain(current);
      }
    },
    15_000,
    100,
  );
}, 120_000);
afterAll(async () => {
  await lb?.stop();
  await Promise.all(replicas.map((r) => r.kill('SIGKILL')));
  await sim?.close();
});

describe('three replicas behind HAProxy', () => {
  it('50 identical concurrent cold queries through the balancer cost what one query costs upstream', async () => {
    const q =
      '{ chain(id: "43114") { blocks(first: 4) { edges { node { number transactions(first: 2) { edges { node { hash } } } } } } } }';
    // What one query costs, cold: one gateway with a cache of its own.
    const alone = createTestGateway(sim);
    sim.reset();
    const one = await alone.query(q);
    expect(one.errors).toBeUndefined();
    const oneCost = dataApiCalls();
    await alone.close();
    expect(Object.values(oneCost).reduce((a, b) => a + b, 0)).toBe(5);
    sim.reset();
    const answers = await Promise.all(Array.from({ length: 50 }, () => post(lb.url, q)));
    for (const a of answers) {
      expect(a.errors).toBeUndefined();
      expect(a.data).toEqual(one.data);
    }
    expect(dataApiCalls()).toEqual(oneCost);
  });

  it('3 × 100 subscribers get every head, with exactly one upstream websocket open', async () => {
    const q = 'subscription { newBlocks(chainId: "43114") { number hash } }';
    const subs = Array.from({ length: 300 }, (_, i) =>
      i % 2 === 0 ? wsSubscribe(`${lb.url}/graphql`, q) : sseSubscribe(`${lb.url}/graphql`, q),
    );
    await eventually(
      async () => {
        const counts = await Promise.all(
          replicas.map(async (r) =>
            Number(
              /^gateway_live_subscribers (\d+)/m.exec(
                await (await fetch(`${r.url}/metrics`)).text(),
              )?.[1] ?? 0,
            ),
          ),
        );
        expect(counts).toEqual([100, 100, 100]);
      },
      30_000,
      100,
    );
    const expected: { number: number; hash: string }[] = [];
    for (let i = 0; i < 5; i++) expected.push(await advance());
    const want = expected.map((h) => ({ number: String(h.number), hash: h.hash }));
    await eventually(
      () => {
        for (const s of subs) expect(s.events.map((e) => e.data?.newBlocks)).toEqual(want);
      },
      30_000,
      100,
    );
    expect(sim.socketStats().open).toBe(1);
    expect((await Promise.all(replicas.map(socketsOf))).sort()).toEqual([0, 0, 1]);
    await Promise.all(subs.map((s) => s.close()));
  }, 90_000);

  it(`kill the replica holding the websocket: another takes it over within ${TAKEOVER_BOUND_MS} ms, no head lost`, async () => {
    const q = 'subscription { newBlocks(chainId: "43114") { number } }';
    const holderIndex = (await Promise.all(replicas.map(socketsOf))).indexOf(1);
    const holder = replicas[holderIndex]!;
    const survivors = replicas.filter((r) => r !== holder);
    // Subscribers on the replicas that stay.
    const subs = survivors.flatMap((r) => [
      wsSubscribe(`${r.url}/graphql`, q),
      sseSubscribe(`${r.url}/graphql`, q),
    ]);
    await new Promise((r) => setTimeout(r, 300));
    const opened = sim.socketStats().opened;
    const killedAt = Date.now();
    await holder.kill('SIGKILL');
    // Blocks keep landing while no replica holds the socket.
    const landed: { number: number; hash: string }[] = [];
    for (let i = 0; i < 3; i++) {
      landed.push(await advance());
      await new Promise((r) => setTimeout(r, 200));
    }
    await eventually(() => {
      expect(sim.socketStats().opened).toBe(opened + 1);
      expect(sim.socketStats().open).toBe(1);
    }, TAKEOVER_BOUND_MS);
    const tookOverMs = Date.now() - killedAt;
    landed.push(await advance());
    const want = landed.map((h) => String(h.number));
    await eventually(() => {
      for (const s of subs) expect(s.events.map((e) => e.data?.newBlocks.number)).toEqual(want);
    }, 10_000);
    expect(tookOverMs).toBeLessThanOrEqual(TAKEOVER_BOUND_MS);
    console.log(
      `takeover: the new holder's socket was open ${tookOverMs} ms after the kill (bound ${TAKEOVER_BOUND_MS} ms)`,
    );
    await Promise.all(subs.map((s) => s.close()));
    replicas = survivors.concat(holder);
  }, 60_000);

  it('after a head lands, blocks(first: 1) shows it on every replica; repeated queries between heads cost 0 calls', async () => {
    const live = replicas.filter((r) => r.child.exitCode === null && r.child.signalCode === null);
    const q = '{ chain(id: "43114") { blocks(first: 1) { edges { node { number } } } } }';
    const head = await advance();
    for (const r of live) {
      await eventually(
        async () =>
          expect((await post(r.url, q)).data.chain.blocks.edges[0].node.number).toBe(
            String(head.number),
          ),
        2_000,
        5,
      );
    }
    sim.reset();
    for (let i = 0; i < 3; i++)
      for (const r of live)
        expect((await post(r.url, q)).data.chain.blocks.edges[0].node.number).toBe(
          String(head.number),
        );
    expect(dataApiCalls()).toEqual({});
  });
});
