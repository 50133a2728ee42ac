import { isAsyncIterable, type Plugin } from 'graphql-yoga';

/**
 * Resumable subscriptions carry an event id: `extensions.eventId` on each result (graphql-ws and SSE),
 * and over SSE also the `id:` field (this one processor writes it for activityId too), so a client's EventSource sends it back as `Last-Event-ID` when it
 * reconnects. The subscription's source marks the id of the event it yields (markEvent) on its context.
 */
const current = new WeakMap<object, string>();

export function markEvent(context: object, id: string): void {
  current.set(context, id);
}

const PING_MS = 12_000;

/** The SSE `id:` line of a result: a head's eventId, or an addressActivity event's activityId. */
function sseIdOf(extensions: Record<string, unknown>): string {
  const id = extensions.eventId ?? extensions.activityId;
  return typeof id === 'string' ? `id: ${id}\n` : '';
}

export function useEventIds(): Plugin {
  return {
    onSubscribe() {
      return {
        onSubscribeResult() {
          return {
            onNext({ args, result, setResult }) {
              const id = current.get(args.contextValue as object);
              if (id) setResult({ ...result, extensions: { ...result.extensions, eventId: id } });
            },
          };
        },
      };
    },
    onResultProcess({ request, result, setResultProcessor }) {
      // Where Yoga would answer with its own SSE processor: the same stream, with `id:` lines.
      if (!isAsyncIterable(result) || !request.headers.get('accept')?.includes('text/event-stream'))
        return;
      setResultProcessor((res, fetchAPI) => {
        const it = (res as AsyncIterable<Record<string, unknown>>)[Symbol.asyncIterator]();
        const enc = new fetchAPI.TextEncoder();
        let ping: ReturnType<typeof setInterval> | undefined;
        const body = new fetchAPI.ReadableStream({
          start(controller) {
            // A first byte at once: some clients wait for one before they hand over the stream.
            controller.enqueue(enc.encode(':\n\n'));
            ping = setInterval(() => {
              if (controller.desiredSize === null) clearInterval(ping);
              else if (controller.desiredSize > 0) controller.enqueue(enc.encode(':\n\n'));
            }, PING_MS);
          },
          async pull(controller) {
            try {
              const r = await it.next();
              if (r.value != null) {
                const { http: _, ...extensions } = (r.value.extensions ?? {}) as Record<
                  string,
                  unknown
                >;
                const value = { ...r.value, extensions };
                if (Object.keys(extensions).length === 0) delete value.extensions;
                const id = sseIdOf(extensions);
                controller.enqueue(
                  enc.encode(`${id}event: next\ndata: ${JSON.stringify(value)}\n\n`),
                );
              }
              if (r.done) {
                controller.enqueue(enc.encode('event: complete\ndata:\n\n'));
                clearInterval(ping);
                controller.close();
              }
            } catch (e) {
              clearInterval(ping);
              controller.error(e);
            }
          },
          async cancel() {
            clearInterval(ping);
            await it.return?.();
          },
        });
        return new fetchAPI.Response(body, {
          status: 200,
          headers: {
            'content-type': 'text/event-stream',
            connection: 'keep-alive',
            'cache-control': 'no-cache',
            'content-encoding': 'none',
          },
        });
      }, 'text/event-stream');
    },
  };
}
