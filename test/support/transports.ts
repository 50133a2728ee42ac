import { createHash } from 'node:crypto';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';

/**
 * One GraphQL operation sent through each way into the gateway, each answer reduced to the same shape
 * (its errors, and whether it had data), so a test can ask every transport the same question.
 */
export type TransportName = 'POST' | 'GET' | 'APQ' | 'SSE' | 'graphql-ws' | 'defer';
export const TRANSPORTS: readonly TransportName[] = [
  'POST',
  'GET',
  'APQ',
  'SSE',
  'graphql-ws',
  'defer',
];

export interface Answer {
  errors: { message: string; extensions?: Record<string, unknown> }[];
  data?: unknown;
  status?: number;
}

export interface Op {
  query: string;
  variables?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** The variables as JSON text (a value too deep for this process's own JSON.stringify). */
  rawVariables?: string;
}

/** The request body's JSON text, with `rawVariables` spliced in as they are. */
function bodyText(op: Op, extra: Record<string, unknown> = {}): string {
  const base = JSON.stringify({ query: op.query, variables: op.variables, ...extra });
  return op.rawVariables === undefined ? base : `{"variables":${op.rawVariables},${base.slice(1)}`;
}

const JSON_TYPE = { 'content-type': 'application/json' };

export async function sendVia(t: TransportName, url: string, op: Op): Promise<Answer> {
  switch (t) {
    case 'POST':
      return fromJson(
        await fetch(url, {
          method: 'POST',
          headers: { ...JSON_TYPE, accept: 'application/json', ...op.headers },
          body: bodyText(op),
        }),
      );
    case 'GET': {
      const q = new URLSearchParams({ query: op.query });
      if (op.variables || op.rawVariables)
        q.set('variables', op.rawVariables ?? JSON.stringify(op.variables));
      return fromJson(
        await fetch(`${url}?${q}`, {
          headers: { accept: 'application/json', 'x-graphql-yoga-csrf': '1', ...op.headers },
        }),
      );
    }
    case 'APQ': {
      const sha256Hash = createHash('sha256').update(op.query).digest('hex');
      return fromJson(
        await fetch(url, {
          method: 'POST',
          headers: { ...JSON_TYPE, accept: 'application/json', ...op.headers },
          body: bodyText(op, { extensions: { persistedQuery: { version: 1, sha256Hash } } }),
        }),
      );
    }
    case 'SSE': {
      const res = await fetch(url, {
        method: 'POST',
        headers: { ...JSON_TYPE, accept: 'text/event-stream', ...op.headers },
        body: bodyText(op),
      });
      const text = await res.text();
      if (!(res.headers.get('content-type') ?? '').includes('event-stream'))
        return { ...parseJson(text), status: res.status };
      const first = text
        .split('\n\n')
        .map((b) =>
          b
            .split('\n')
            .filter((l) => l.startsWith('data:'))
            .map((l) => l.slice(5).trim())
            .join(''),
        )
        .find((d) => d.startsWith('{'));
      return { ...parseJson(first ?? '{}'), status: res.status };
    }
    case 'defer': {
      // What Node's fetch sends by default: `accept: */*`.
      const res = await fetch(url, {
        method: 'POST',
        headers: { ...JSON_TYPE, ...op.headers },
        body: bodyText(op),
      });
      const text = await res.text();
      const start = text.indexOf('{');
      if (start < 0) return { errors: [], status: res.status };
      const end = (res.headers.get('content-type') ?? '').includes('multipart')
        ? text.indexOf('\r\n--', start)
        : text.length;
      return { ...parseJson(text.slice(start, end < 0 ? text.length : end)), status: res.status };
    }
    case 'graphql-ws':
      return op.rawVariables === undefined ? wsOnce(url, op) : wsRaw(url, op);
  }
}

async function fromJson(res: Response): Promise<Answer> {
  return { ...parseJson(await res.text()), status: res.status };
}

function parseJson(text: string): Answer {
  try {
    const v = JSON.parse(text) as Partial<Answer>;
    return { errors: v.errors ?? [], data: v.data };
  } catch {
    return { errors: [{ message: `not JSON: ${text.slice(0, 200)}` }] };
  }
}

/** One operation over a fresh graphql-ws client: its first `next` payload, or its `error` message. */
export function wsOnce(url: string, op: Op, timeoutMs = 10_000): Promise<Answer> {
  const client = createClient({
    url: url.replace(/^http/, 'ws'),
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: true,
  });
  return wsOn(client, op, timeoutMs).finally(() => client.dispose());
}

/** One operation on an existing graphql-ws client. */
export function wsOn(
  client: ReturnType<typeof createClient>,
  op: Op,
  timeoutMs = 10_000,
): Promise<Answer> {
  return new Promise<Answer>((resolve) => {
    let stop = () => {};
    const timer = setTimeout(() => {
      stop();
      resolve({ errors: [{ message: 'timed out' }] });
    }, timeoutMs);
    const done = (a: Answer) => {
      clearTimeout(timer);
      stop();
      resolve(a);
    };
    stop = client.subscribe(
      { query: op.query, variables: op.variables },
      {
        next: (v) => done({ errors: (v.errors ?? []) as Answer['errors'], data: v.data }),
        error: (e) =>
          done({
            errors: Array.isArray(e)
              ? (e as Answer['errors'])
              : [{ message: `socket closed: ${(e as { code?: number }).code ?? String(e)}` }],
          }),
        complete: () => {},
      },
    );
  });
}

/** One operation over a raw graphql-transport-ws socket, its payload written as text. */
export function wsRaw(url: string, op: Op, timeoutMs = 10_000): Promise<Answer> {
  return new Promise<Answer>((resolve) => {
    const s = new WebSocket(
      url.replace(/^http/, 'ws'),
      'graphql-transport-ws',
      op.headers && { headers: op.headers },
    );
    let stage = 'connecting';
    let settled = false;
    const done = (a: Answer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      s.terminate();
      resolve(a);
    };
    const timer = setTimeout(
      () => done({ errors: [{ message: `timed out (${stage})` }] }),
      timeoutMs,
    );
    // A refused upgrade (403) or a failed connection: the error, never an unhandled event.
    s.on('error', (e) =>
      done({
        errors: [{ message: `socket error: ${(e as { code?: string }).code ?? e.message}` }],
      }),
    );
    s.on('open', () => {
      stage = 'awaiting connection_ack';
      s.send(JSON.stringify({ type: 'connection_init' }));
    });
    s.on('close', (code) => done({ errors: [{ message: `socket closed: ${code}` }] }));
    s.on('message', (data) => {
      const m = JSON.parse(String(data)) as { type: string; payload?: any };
      if (m.type === 'connection_ack') {
        stage = 'awaiting the answer';
        s.send(`{"id":"1","type":"subscribe","payload":${bodyText(op)}}`);
      } else if (m.type === 'next') done({ errors: m.payload.errors ?? [], data: m.payload.data });
      else if (m.type === 'error') done({ errors: m.payload });
    });
  });
}
