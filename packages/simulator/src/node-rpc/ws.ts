import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import type { SimUpstream } from '../types.js';
import type { EvmBlock, EvmChainData } from '../world/index.js';
import { formatBlock, hex } from './evm-format.js';
import { blockLogs } from './evm-logs.js';

/**
 * The C-Chain websocket (`/node/ext/bc/C/ws`), as coreth serves it: JSON-RPC over the socket, with
 * `eth_subscribe("newHeads")`, `eth_subscribe("logs", filter)` and `eth_unsubscribe`; any other method is
 * answered by the same handlers as `/ext/bc/C/rpc`. Heads are pushed as the world advances
 * (`emitBlocks`); `drop()` closes every open socket (the control API's fault), `refuse(n)` refuses the
 * next n upgrades.
 */

export const WS_PATH = '/node/ext/bc/C/ws';

type Sub = { kind: 'newHeads' } | { kind: 'logs'; addresses: string[]; topic0?: string[] };

export interface SimSockets {
  /** Handles an HTTP upgrade; false when the path is not the websocket's. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  emitBlocks(chain: EvmChainData, blocks: readonly EvmBlock[]): void;
  drop(): number;
  refuse(n: number): void;
  stats(): { open: number; opened: number; subscriptions: number };
  close(): void;
}

export function createSimSockets(
  node: SimUpstream,
  cChainId: string,
  onCall: (method: string) => void,
): SimSockets {
  const wss = new WebSocketServer({ noServer: true });
  const subs = new Map<WebSocket, Map<string, Sub>>();
  let opened = 0;
  let refusing = 0;
  let nextId = 1;

  const send = (ws: WebSocket, msg: unknown) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(msg));
  };

  async function onMessage(ws: WebSocket, raw: string): Promise<void> {
    let msg: { id?: unknown; method?: unknown; params?: unknown };
    try {
      msg = JSON.parse(raw) as typeof msg;
    } catch {
      return send(ws, {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: 'parse error' },
      });
    }
    const method = typeof msg.method === 'string' ? msg.method : '';
    onCall(method);
    const params = Array.isArray(msg.params) ? msg.params : [];
    const mine = subs.get(ws)!;
    if (method === 'eth_subscribe') {
      const sub = parseSub(params);
      if (!sub)
        return send(ws, {
          jsonrpc: '2.0',
          id: msg.id,
          error: { code: -32602, message: 'unsupported subscription' },
        });
      const id = hex(BigInt(nextId++) * 0x1000003n);
      mine.set(id, sub);
      return send(ws, { jsonrpc: '2.0', id: msg.id, result: id });
    }
    if (method === 'eth_unsubscribe')
      return send(ws, { jsonrpc: '2.0', id: msg.id, result: mine.delete(String(params[0])) });
    // Everything else: the HTTP endpoint's own handlers and protocol.
    const r = await node.handle({
      method: 'POST',
      path: '/ext/bc/C/rpc',
      query: new URLSearchParams(),
      headers: { 'content-type': 'application/json' },
      rawBody: raw,
    });
    if (r.body !== undefined) send(ws, r.body);
  }

  return {
    upgrade(req, socket, head) {
      if ((req.url ?? '').split('?')[0] !== WS_PATH) return false;
      if (refusing > 0) {
        refusing -= 1;
        socket.end('HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\n\r\n');
        return true;
      }
      wss.handleUpgrade(req, socket, head, (ws) => {
        opened += 1;
        subs.set(ws, new Map());
        ws.on('message', (data) => void onMessage(ws, data.toString()));
        ws.on('close', () => subs.delete(ws));
        ws.on('error', () => ws.terminate());
      });
      return true;
    },
    emitBlocks(chain, blocks) {
      if (String(chain.info.chainId) !== cChainId) return;
      for (const b of blocks) {
        const { transactions: _t, ...header } = formatBlock(chain, b, false);
        const logs = blockLogs(chain, b).flat();
        for (const [ws, mine] of subs) {
          for (const [id, sub] of mine) {
            if (sub.kind === 'newHeads') send(ws, notification(id, header));
            else
              for (const log of logs.filter((l) => matches(sub, l)))
                send(ws, notification(id, log));
          }
        }
      }
    },
    drop() {
      const n = subs.size;
      for (const ws of subs.keys()) ws.terminate();
      return n;
    },
    refuse(n) {
      refusing = n;
    },
    stats() {
      let subscriptions = 0;
      for (const m of subs.values()) subscriptions += m.size;
      return { open: subs.size, opened, subscriptions };
    },
    close() {
      for (const ws of subs.keys()) ws.terminate();
      wss.close();
    },
  };
}

const notification = (subscription: string, result: unknown) => ({
  jsonrpc: '2.0',
  method: 'eth_subscription',
  params: { subscription, result },
});

function parseSub(params: unknown[]): Sub | undefined {
  if (params[0] === 'newHeads') return { kind: 'newHeads' };
  if (params[0] !== 'logs') return undefined;
  const f = (params[1] ?? {}) as { address?: unknown; topics?: unknown };
  const addresses = (Array.isArray(f.address) ? f.address : f.address ? [f.address] : []).map((a) =>
    String(a).toLowerCase(),
  );
  const t0 = Array.isArray(f.topics) ? f.topics[0] : undefined;
  const topic0 =
    t0 == null ? undefined : (Array.isArray(t0) ? t0 : [t0]).map((t) => String(t).toLowerCase());
  return { kind: 'logs', addresses, topic0 };
}

function matches(
  sub: Extract<Sub, { kind: 'logs' }>,
  log: { address: string; topics: string[] },
): boolean {
  if (sub.addresses.length > 0 && !sub.addresses.includes(log.address)) return false;
  return !sub.topic0 || sub.topic0.includes(log.topics[0]!);
}
