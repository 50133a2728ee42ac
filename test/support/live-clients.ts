import { createClient } from 'graphql-ws';
import WebSocket from 'ws';

/** A subscription over Server-Sent Events (Yoga: POST with `accept: text/event-stream`); events as they come. */
export function sseSubscribe(url: string, query: string, variables: Record<string, unknown> = {}) {
  const events: any[] = [];
  const ctrl = new AbortController();
  const done = (async () => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query, variables }),
      signal: ctrl.signal,
    });
    const reader = res.body!.getReader();
    const dec = new TextDecoder();
    let buf = '';
    for (;;) {
      const { value, done: end } = await reader.read();
      if (end) return;
      buf += dec.decode(value, { stream: true });
      for (let i = buf.indexOf('\n\n'); i >= 0; i = buf.indexOf('\n\n')) {
        const block = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const data = block
          .split('\n')
          .filter((l) => l.startsWith('data:'))
          .map((l) => l.slice(5).trim())
          .join('');
        if (data) events.push(JSON.parse(data));
      }
    }
  })().catch(() => {});
  return { events, close: () => ctrl.abort(), done };
}

/** A subscription over graphql-ws. */
export function wsSubscribe(url: string, query: string, variables: Record<string, unknown> = {}) {
  const events: any[] = [];
  const client = createClient({
    url: url.replace(/^http/, 'ws'),
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: false,
  });
  const stop = client.subscribe(
    { query, variables },
    {
      next: (v) => void events.push(v),
      error: (e) => void events.push({ error: e }),
      complete: () => {},
    },
  );
  return {
    events,
    close: async () => {
      stop();
      await client.dispose();
    },
  };
}

/** Polls until `check` passes or `bound` ms pass (then throws with the last error). */
export async function eventually(
  check: () => void | Promise<void>,
  bound = 10_000,
  every = 20,
): Promise<void> {
  const until = Date.now() + bound;
  for (;;) {
    try {
      await check();
      return;
    } catch (e) {
      if (Date.now() > until) throw e;
      await new Promise((r) => setTimeout(r, every));
    }
  }
}
