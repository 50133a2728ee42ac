import { request } from 'node:http';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';

/**
 * newBlocks subscribers that reconnect as a careful client does: SSE sends the last event id back as
 * `Last-Event-ID`, graphql-ws resubscribes with `after` = the last block number it got. Every block
 * number received is kept, so a test sees any head lost or repeated across a reconnect.
 */
export interface ResumingSubscriber {
  kind: 'sse' | 'ws';
  numbers: string[];
  errors: unknown[];
  /** Connections opened (1 + reconnects). */
  connects: number;
  close(): Promise<void>;
}

const QUERY =
  'subscription($c: String!, $a: String) { newBlocks(chainId: $c, after: $a) { number } }';

/** SSE over node:http (no fetch pooling), reconnecting `retryMs` after a stream ends or fails. */
export function resumingSse(
  base: string,
  chainId: string,
  retryMs = 200,
  extraHeaders: Record<string, string> = {},
): ResumingSubscriber {
  const url = new URL('/graphql', base);
  const sub: ResumingSubscriber = { kind: 'sse', numbers: [], errors: [], connects: 0, close };
  let lastId: string | undefined;
  let closed = false;
  let current: ReturnType<typeof request> | undefined;
  const connect = () => {
    if (closed) return;
    sub.connects += 1;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      ...extraHeaders,
    };
    if (lastId) headers['last-event-id'] = lastId;
    let again = false;
    const retry = () => {
      if (again) return;
      again = true;
      setTimeout(connect, retryMs);
    };
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers },
      (res) => {
        if (res.statusCode !== 200) sub.errors.push(`HTTP ${res.statusCode}`);
        let buf = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          buf += d;
          for (let i = buf.indexOf('\n\n'); i >= 0; i = buf.indexOf('\n\n')) {
            const block = buf.slice(0, i).split('\n');
            buf = buf.slice(i + 2);
            const id = block
              .find((l) => l.startsWith('id:'))
              ?.slice(3)
              .trim();
            const data = block
              .filter((l) => l.startsWith('data:'))
              .map((l) => l.slice(5).trim())
              .join('');
            if (!data) continue;
            const event = JSON.parse(data);
            if (event.errors) sub.errors.push(event.errors);
            const n = event.data?.newBlocks?.number;
            if (n !== undefined) sub.numbers.push(n);
            if (id) lastId = id;
          }
        });
        res.on('close', retry);
        res.on('error', retry);
      },
    );
    req.on('error', retry);
    req.end(JSON.stringify({ query: QUERY, variables: { c: chainId } }));
    current = req;
  };
  async function close() {
    closed = true;
    current?.destroy();
  }
  connect();
  return sub;
}

/** graphql-ws, resubscribing with `after` on a fresh client whenever the socket closes. */
export function resumingWs(
  base: string,
  chainId: string,
  retryMs = 200,
  extraHeaders: Record<string, string> = {},
): ResumingSubscriber {
  // The upgrade request carries the extra headers (a forwarded client address, say).
  class WithHeaders extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { headers: extraHeaders });
    }
  }
  const sub: ResumingSubscriber = { kind: 'ws', numbers: [], errors: [], connects: 0, close };
  let closed = false;
  let client: ReturnType<typeof createClient> | undefined;
  const connect = () => {
    if (closed) return;
    sub.connects += 1;
    const after = sub.numbers.at(-1) ?? null;
    let again = false;
    const retry = () => {
      if (again || closed) return;
      again = true;
      void Promise.resolve(client?.dispose()).catch(() => {});
      setTimeout(connect, retryMs);
    };
    client = createClient({
      url: `${base.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WithHeaders,
      retryAttempts: 0,
      lazy: false,
      onNonLazyError: () => {},
      on: { closed: retry, error: retry },
    });
    client.subscribe(
      { query: QUERY, variables: { c: chainId, a: after } },
      {
        next: (v) => {
          if (v.errors) sub.errors.push(v.errors);
          const n = (v.data as { newBlocks?: { number: string } } | null)?.newBlocks?.number;
          if (n !== undefined) sub.numbers.push(n);
        },
        error: (e) => {
          // A closed socket is a reconnect, not an answer; an error the server sent is kept.
          if (!(e instanceof Object && 'code' in e)) sub.errors.push(e);
          retry();
        },
        complete: retry,
      },
    );
  };
  async function close() {
    closed = true;
    await Promise.resolve(client?.dispose()).catch(() => {});
  }
  connect();
  return sub;
}

/** What a subscriber got against the heads `from`..`to`: missing and repeated block numbers. */
export function judgeHeads(numbers: readonly string[], from: bigint, to: bigint) {
  const seen = new Map<string, number>();
  for (const n of numbers) seen.set(n, (seen.get(n) ?? 0) + 1);
  const missing: string[] = [];
  for (let n = from; n <= to; n++) if (!seen.has(String(n))) missing.push(String(n));
  const repeated = [...seen].filter(([, c]) => c > 1).map(([n]) => n);
  const outOfOrder = numbers.some((n, i) => i > 0 && BigInt(n) <= BigInt(numbers[i - 1]!));
  return { missing, repeated, outOfOrder };
}
