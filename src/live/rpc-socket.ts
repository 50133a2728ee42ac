import WebSocket from 'ws';

/**
 * A JSON-RPC client over one websocket to an EVM node: requests by id, `eth_subscription` notifications
 * to one handler. `closed` settles once when the socket ends (by either side, or a failed open).
 */
export interface RpcSocket {
  request(method: string, params?: unknown[]): Promise<unknown>;
  closed: Promise<void>;
  close(): void;
}

export function openRpcSocket(
  url: string,
  onNotification: (subscription: string, result: unknown) => void,
  timeoutMs = 10_000,
  signal?: AbortSignal,
): Promise<RpcSocket> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('websocket open aborted'));
    const ws = new WebSocket(url, { handshakeTimeout: timeoutMs, maxPayload: 16 * 1024 * 1024 });
    // An abort ends the socket whatever its state: an open still in its handshake fails at once.
    const abort = () => ws.terminate();
    signal?.addEventListener('abort', abort, { once: true });
    const pending = new Map<
      number,
      { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }
    >();
    let nextId = 1;
    let settleClosed!: () => void;
    const closed = new Promise<void>((r) => (settleClosed = r));
    const fail = (e: Error) => {
      for (const p of pending.values()) {
        clearTimeout(p.timer);
        p.reject(e);
      }
      pending.clear();
    };
    ws.on('message', (data) => {
      let msg: {
        id?: number;
        result?: unknown;
        error?: { message?: string };
        method?: string;
        params?: { subscription?: string; result?: unknown };
      };
      try {
        msg = JSON.parse(data.toString()) as typeof msg;
      } catch {
        return;
      }
      if (msg.method === 'eth_subscription' && msg.params?.subscription)
        return onNotification(msg.params.subscription, msg.params.result);
      const p = typeof msg.id === 'number' ? pending.get(msg.id) : undefined;
      if (!p) return;
      pending.delete(msg.id!);
      clearTimeout(p.timer);
      if (msg.error) p.reject(new Error(`node: ${msg.error.message ?? 'error'}`));
      else p.resolve(msg.result);
    });
    ws.on('error', (e) => {
      fail(e);
      reject(e);
    });
    ws.on('close', () => {
      signal?.removeEventListener('abort', abort);
      fail(new Error('websocket closed'));
      reject(new Error('websocket closed'));
      settleClosed();
    });
    ws.on('open', () =>
      resolve({
        closed,
        close: () => ws.terminate(),
        request: (method, params = []) =>
          new Promise((res, rej) => {
            if (ws.readyState !== ws.OPEN) return rej(new Error('websocket closed'));
            const id = nextId++;
            const timer = setTimeout(() => {
              pending.delete(id);
              rej(new Error(`node: ${method} timed out`));
              ws.terminate();
            }, timeoutMs);
            pending.set(id, { resolve: res, reject: rej, timer });
            ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
          }),
      }),
    );
  });
}
