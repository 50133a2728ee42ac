import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { MemoryHeadBus } from '../../src/live/bus.js';
import { HeadSource } from '../../src/live/head-source.js';

/**
 * A node websocket whose handshake waits until the test lets it through, and which then answers the
 * head source's set-up calls like a node (chain 43114, head 0x10) and stays open.
 */
async function slowNode() {
  let letThrough!: () => void;
  const gate = new Promise<void>((r) => (letThrough = r));
  let knocked!: () => void;
  const knocking = new Promise<void>((r) => (knocked = r));
  const wss = new WebSocketServer({
    port: 0,
    host: '127.0.0.1',
    verifyClient: (_info, done) => {
      knocked();
      void gate.then(() => done(true));
    },
  });
  await new Promise<void>((r) => wss.once('listening', () => r()));
  let handshakes = 0;
  wss.on('connection', (ws) => {
    handshakes += 1;
    ws.on('message', (raw) => {
      const { id, method } = JSON.parse(raw.toString()) as { id: number; method: string };
      const result = { eth_chainId: '0xa86a', eth_subscribe: '0x1', eth_blockNumber: '0x10' }[
        method
      ];
      ws.send(JSON.stringify({ jsonrpc: '2.0', id, result: result ?? null }));
    });
  });
  const port = (wss.address() as AddressInfo).port;
  return {
    url: `ws://127.0.0.1:${port}`,
    letThrough,
    /** Settles once a client's handshake is waiting at the gate. */
    knocking,
    handshakes: () => handshakes,
    close: () => {
      for (const c of wss.clients) c.terminate();
      return new Promise<void>((r) => wss.close(() => r()));
    },
  };
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe('a head source stopped while its websocket opens', () => {
  it('stops at once, and does not follow the socket that opens after', async () => {
    const node = await slowNode();
    closers.push(node.close);
    const sockets: number[] = [];
    const source = new HeadSource({
      chainId: '43114',
      url: node.url,
      bus: new MemoryHeadBus(),
      owner: 'test',
      lockTtlMs: 900,
      maxBackfill: 4,
      now: Date.now,
      log: () => {},
      onSocket: (delta) => sockets.push(delta),
    });
    source.start();
    // The handshake is waiting in the node: the source is inside its open.
    await node.knocking;
    const stopped = source.stop();
    node.letThrough();
    const outcome = await Promise.race([
      stopped.then(() => 'stopped'),
      new Promise((r) => setTimeout(() => r('still running after 3 s'), 3_000)),
    ]);
    expect(outcome).toBe('stopped');
    // Whatever opened was closed again: no socket is left counted as open.
    expect(sockets.reduce<number>((sum, d) => sum + d, 0)).toBe(0);
  });
});
