import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningHttpServer, startHttpServer } from '../../src/http/server.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { createTestGateway, type TestGateway, useSimulator } from '../support/gateway.js';
import { eventually, sseSubscribe, wsSubscribe } from '../support/live-clients.js';
import { startRedisServer, type TestRedis } from '../support/redis.js';

/**
 * Redis restarted empty while blocks land: the heads published meanwhile never reached the bus, and the
 * bus no longer knows the last one. The socket holder catches up from the last head its replica
 * delivered, so subscribers still get every block, in order, once.
 */
let sim: RunningSimulator;
let redis: TestRedis;
let gw: TestGateway;
let http: RunningHttpServer;

const advance = async () =>
  (
    (await (
      await fetch(`${sim.url}/_sim/advance`, {
        method: 'POST',
        body: JSON.stringify({ chainId: '43114', blocks: 1, evolve: false }),
      })
    ).json()) as { head: { number: number } }
  ).head.number;

useSimulator({}, (s) => {
  sim = s;
});
beforeAll(async () => {
  redis = await startRedisServer();
  gw = createTestGateway(sim, {
    redisUrl: redis.url,
    env: {
      LIVE_WS: `43114=${sim.wsUrl}`,
      LIVE_LOCK_TTL_MS: '1000',
      REDIS_COMMAND_TIMEOUT_MS: '500',
    },
  });
  await gw.ready();
  http = await startHttpServer({
    gateway: gw,
    port: 0,
    host: '127.0.0.1',
    graceMs: 1_000,
    logger: createLogger({ level: 'silent' }),
  });
  await eventually(() => expect(sim.socketStats().subscriptions).toBe(1), 15_000);
  // The holder has published the node's current head: subscribers from now on get the blocks after it.
  const current = String(sim.world.chain('43114')!.head().number);
  await eventually(async () => {
    const r = await gw.query(
      '{ chain(id: "43114") { blocks(first: 1) { edges { node { number } } } } }',
    );
    expect(JSON.stringify(r.extensions?.heads ?? null)).toContain(current);
  }, 15_000);
}, 60_000);
afterAll(async () => {
  await http?.shutdown('test');
  await redis?.stop();
});

describe('live heads across a Redis restarted empty', () => {
  it('subscribers get every block landed while Redis was down', async () => {
    // Restarting needs our own redis-server (CI installs it; without it the suite uses a shared Redis).
    expect(redis.owned).toBe(true);
    const q = 'subscription { newBlocks(chainId: "43114") { number } }';
    const url = `http://127.0.0.1:${http.port}/graphql`;
    const subs = [wsSubscribe(url, q), sseSubscribe(url, q)];
    await eventually(() => expect(gw.live!.subscriberCount()).toBe(2)); // both are open
    const want: number[] = [await advance(), await advance()];
    await eventually(() => {
      for (const s of subs) expect(s.events).toHaveLength(2);
    }, 10_000);
    await redis.stop();
    for (let i = 0; i < 3; i++) {
      want.push(await advance());
      await new Promise((r) => setTimeout(r, 200));
    }
    await redis.restart();
    await new Promise((r) => setTimeout(r, 1_500));
    want.push(await advance());
    await eventually(() => {
      for (const s of subs)
        expect(s.events.map((e) => e.data?.newBlocks.number)).toEqual(want.map(String));
    }, 20_000);
    await Promise.all(subs.map((s) => s.close()));
  }, 60_000);
});
