import { request } from 'node:http';
import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { describe, expect, it, vi } from 'vitest';
import { startHttpServer } from '../../src/http/server.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { useSimulator } from '../support/gateway.js';
import { allocateRedisDb } from '../support/redis-db.js';

/**
 * SHUTDOWN_DRAIN_MS: from the signal, `/health` answers 503 (a balancer's readiness check takes the
 * replica out) while the listener still serves; only then does it close, and event streams are cut
 * then so their clients reconnect elsewhere instead of holding the shutdown for the whole grace.
 */
const redisUrl = await allocateRedisDb();
const QUERY = `{ chain(id: "43114") { blocks(first: 1) { edges { node { number } } } } }`;
let sim: RunningSimulator;

const { gateway } = useSimulator({}, (s) => {
  sim = s;
});

const logger = createLogger({ level: 'silent' });

describe('the drain period before the listener closes', () => {
  it('/health goes 503 at once, new requests are still answered, then connections are refused', async () => {
    const gw = gateway({ redisUrl });
    await gw.ready();
    const http = await startHttpServer({
      gateway: gw,
      port: 0,
      host: '127.0.0.1',
      graceMs: 5_000,
      drainMs: 800,
      logger,
    });
    const base = `http://127.0.0.1:${http.port}`;
    expect((await fetch(`${base}/health`)).status).toBe(200);
    const t0 = Date.now();
    const stopped = http.shutdown('test');
    const health = await fetch(`${base}/health`);
    expect(health.status).toBe(503);
    expect(await health.json()).toEqual({ status: 'draining' });
    // Liveness stays up: the process is healthy, it is leaving.
    expect((await fetch(`${base}/live`)).status).toBe(200);
    const res = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: QUERY }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).data.chain.blocks.edges).toHaveLength(1);
    expect(await stopped).toEqual({ drained: true });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(750);
    await expect(fetch(`${base}/health`)).rejects.toThrow();
  });

  it('an open event stream is cut when the listener closes; shutdown does not wait out the grace', async () => {
    const gw = gateway({ redisUrl, env: { LIVE_WS: `43114=${sim.wsUrl}` } });
    await gw.ready();
    const http = await startHttpServer({
      gateway: gw,
      port: 0,
      host: '127.0.0.1',
      graceMs: 20_000,
      drainMs: 100,
      logger,
    });
    // A subscription that stays open until it is cut.
    const ended = new Promise<string>((resolve) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: http.port,
          path: '/graphql',
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        },
        (res) => {
          res.on('data', () => {});
          res.on('close', () => resolve('closed'));
          res.on('error', () => resolve('closed'));
        },
      );
      req.on('error', () => resolve('closed'));
      req.end(JSON.stringify({ query: 'subscription { newBlocks(chainId: "43114") { number } }' }));
    });
    // Open once the feed counts its subscriber (polled).
    await vi.waitFor(() => expect(gw.live!.subscriberCount()).toBe(1), { timeout: 5_000 });
    expect(http.inFlight()).toBe(1);
    const t0 = Date.now();
    const result = await http.shutdown('test');
    expect(await ended).toBe('closed');
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(result.drained).toBe(true);
  });
});
