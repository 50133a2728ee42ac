import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { connectionSharesOf } from '../../src/http/connection-shares.js';
import { type RunningHttpServer, startHttpServer } from '../../src/http/server.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { createTestGateway, PRODUCTION_ENV, useSimulator } from '../support/gateway.js';

/**
 * Issue 42: 200 SSE subscriptions from one client filled MAX_CONNECTIONS=200, and /health and every other
 * client failed. Each client now holds at most STREAMS_PER_CLIENT long-lived connections (SSE and
 * graphql-ws counted together), and the CONNECTIONS_RESERVED above MAX_CONNECTIONS serve /health.
 */
const logger = createLogger({ level: 'silent' });
let sim: RunningSimulator;
let http: RunningHttpServer;
const MAX = 8;
const PER_CLIENT = 3;

useSimulator({}, (s) => {
  sim = s;
});
beforeAll(async () => {
  const gw = createTestGateway(sim, {
    env: {
      ...PRODUCTION_ENV,
      LIVE_WS: `43114=${sim.wsUrl}`,
      LIVE_LOCK_TTL_MS: '600',
      TRUSTED_PROXIES: 'loopback',
      MAX_CONNECTIONS: String(MAX),
      CONNECTIONS_RESERVED: '2',
      STREAMS_PER_CLIENT: String(PER_CLIENT),
    },
  });
  await gw.ready();
  http = await startHttpServer({
    gateway: gw,
    port: 0,
    host: '127.0.0.1',
    graceMs: 100,
    logger,
    ws: { clientOf: gw.wsClientOf },
    connections: connectionSharesOf(gw.config, gw.wsClientOf),
  });
});
afterAll(async () => {
  await http?.shutdown('test');
});

const url = () => `http://127.0.0.1:${http.port}/graphql`;
const NEW_BLOCKS = 'subscription { newBlocks(chainId: "43114") { number } }';

/** An SSE subscription from `ip` (forwarded by the loopback proxy): its status and, when refused, its body. */
async function sse(ip: string) {
  const ctrl = new AbortController();
  const res = await fetch(url(), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      'x-forwarded-for': ip,
    },
    body: JSON.stringify({ query: NEW_BLOCKS }),
    signal: ctrl.signal,
  });
  const body = res.status === 200 ? undefined : ((await res.json()) as any);
  return { status: res.status, body, close: () => ctrl.abort() };
}

/** A graphql-ws socket from `ip`: 'open' when it is still open after 300 ms, else its close code and reason. */
function ws(ip: string) {
  const s = new WebSocket(url().replace(/^http/, 'ws'), 'graphql-transport-ws', {
    headers: { 'x-forwarded-for': ip },
  });
  const outcome = new Promise<string>((resolve) => {
    s.once('close', (code, reason) => resolve(`${code} ${reason}`));
    s.once('error', () => resolve('error'));
    s.once('open', () => setTimeout(() => resolve('open'), 300));
  });
  return { outcome, close: () => s.terminate() };
}

describe('each client gets a share of the long-lived connections', () => {
  it('the stream over the share is refused with 429 TOO_MANY_CONNECTIONS; a websocket counts too', async () => {
    const mine = await Promise.all(Array.from({ length: PER_CLIENT }, () => sse('203.0.113.7')));
    expect(mine.map((s) => s.status)).toEqual([200, 200, 200]);
    const over = await sse('203.0.113.7');
    expect(over.status).toBe(429);
    expect(over.body.errors[0].extensions).toMatchObject({
      code: 'TOO_MANY_CONNECTIONS',
      max: PER_CLIENT,
    });
    const socket = ws('203.0.113.7');
    expect(await socket.outcome).toMatch(/^4429 TOO_MANY_CONNECTIONS/);
    // Another client is not touched by the first one's share.
    const other = await sse('203.0.113.8');
    expect(other.status).toBe(200);
    const otherWs = ws('203.0.113.8');
    expect(await otherWs.outcome).toBe('open');
    for (const s of [...mine, over, other]) s.close();
    otherWs.close();
    socket.close();
  });

  it('a client that closes its streams gets its places back', async () => {
    const first = await Promise.all(Array.from({ length: PER_CLIENT }, () => sse('203.0.113.9')));
    for (const s of first) s.close();
    await new Promise((r) => setTimeout(r, 200));
    const again = await Promise.all(Array.from({ length: PER_CLIENT }, () => sse('203.0.113.9')));
    expect(again.map((s) => s.status)).toEqual([200, 200, 200]);
    for (const s of again) s.close();
  });

  it('with MAX_CONNECTIONS held, /health still answers and other requests get 503 SERVER_BUSY, never a hang', async () => {
    // Many clients, each within its share, together hold every ordinary connection.
    const held = [];
    for (let i = 0; held.length < MAX; i++) held.push(await sse(`198.51.100.${i >> 1}`));
    expect(held.every((s) => s.status === 200)).toBe(true);
    await new Promise((r) => setTimeout(r, 100));
    const health = await fetch(url().replace('/graphql', '/health'), {
      signal: AbortSignal.timeout(3_000),
    });
    expect(health.status).toBe(200);
    const busy = await fetch(url(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
      signal: AbortSignal.timeout(3_000),
    });
    expect(busy.status).toBe(503);
    expect(((await busy.json()) as any).errors[0].extensions.code).toBe('SERVER_BUSY');
    for (const s of held) s.close();
  });
});
