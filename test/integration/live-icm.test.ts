import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningHttpServer } from '../../src/http/server.js';
import { type TestGateway, useSimAndGateway } from '../support/gateway.js';
import { eventually, sseSubscribe, wsSubscribe } from '../support/live-clients.js';
import { serveOnLoopback } from '../support/served.js';

/**
 * `icmMessage` as a subscription against the simulator: a message sent on the C-Chain to another chain is
 * SENT, then DELIVERED once the simulated relayer delivers it (the world's next step), and the stream ends.
 * The C-Chain is followed live, so the Data API is re-read at its head cadence.
 */
let sim: RunningSimulator;
let gw: TestGateway;
let http: RunningHttpServer;
let url: string;

useSimAndGateway(
  {
    redis: true,
    live: {},
  },
  (s, g) => {
    sim = s;
    gw = g;
  },
);
beforeAll(async () => {
  http = await serveOnLoopback(gw);
  url = `http://127.0.0.1:${http.port}/graphql`;
  const current = String(sim.world.chain('43114')!.head().number);
  await eventually(() => expect(gw.live!.head('43114')?.number).toBe(current), 15_000);
}, 60_000);
afterAll(async () => {
  await http?.shutdown('test');
});

const advance = () =>
  fetch(`${sim.url}/_sim/advance`, {
    method: 'POST',
    body: JSON.stringify({ chainId: '43114', blocks: 1 }),
  });

const Q = `subscription($id: String!) { icmMessage(messageId: $id) {
  messageId status seenBy final head destinationTransactionHash
  message { __typename status sourceChain { chainId } destinationChain { chainId } } } }`;

it('a message sent on the C-Chain: SENT, then DELIVERED on its destination chain, then the stream ends', async () => {
  const pending = sim.world.icm.messages.find(
    (m) => m.status === 'pending' && m.sourceEvmChainId === '43114',
  )!;
  expect(pending).toBeDefined();
  const ws = wsSubscribe(url, Q, { id: pending.messageId });
  const sse = sseSubscribe(url, Q, { id: `0x${pending.messageId}` });
  const updates = (events: any[]) => events.map((e) => e.data?.icmMessage ?? e);
  await eventually(() => {
    expect(updates(ws.events).length).toBe(1);
    expect(updates(sse.events).length).toBe(1);
  });
  expect(updates(ws.events)[0]).toMatchObject({
    messageId: pending.messageId,
    status: 'SENT',
    seenBy: 'DATA_API',
    final: false,
    destinationTransactionHash: null,
    message: {
      __typename: 'PendingIcmMessage',
      status: 'PENDING',
      sourceChain: { chainId: '43114' },
      destinationChain: { chainId: pending.destinationEvmChainId },
    },
  });
  // The world's next steps deliver the oldest pending messages; this one among the first.
  await eventually(async () => {
    if (pending.status === 'pending') await advance();
    expect(pending.status).toBe('delivered');
  }, 20_000);
  await eventually(() => {
    for (const events of [ws.events, sse.events]) {
      const u = updates(events);
      expect(u.map((x: any) => x.status)).toEqual(['SENT', 'DELIVERED']);
      expect(u[1]).toMatchObject({
        final: true,
        seenBy: 'DATA_API',
        destinationTransactionHash: pending.destinationTransaction!.txHash.toLowerCase(),
        message: { __typename: 'DeliveredIcmMessage' },
      });
    }
  }, 20_000);
  // Completed: the SSE stream has ended by itself.
  await sse.done;
  await ws.close();
}, 60_000);

it('a delivered message: one DELIVERED update, then the end; an unknown one waits, a malformed one is refused', async () => {
  const delivered = sim.world.icm.messages.find((m) => m.status === 'delivered')!;
  const sse = sseSubscribe(url, Q, { id: delivered.messageId });
  await sse.done;
  expect(sse.events.map((e) => e.data?.icmMessage?.status)).toEqual(['DELIVERED']);
  const bad = sseSubscribe(url, Q, { id: '0x12' });
  await bad.done;
  expect(bad.events[0].errors[0].extensions.code).toBe('BAD_USER_INPUT');
});
