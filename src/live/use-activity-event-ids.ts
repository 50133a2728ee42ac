import type { Plugin } from 'graphql-yoga';

/**
 * Resumption ids for `addressActivity`: `<block>:<transaction index>` of each event, whatever fields the
 * client selected. The stream notes the id of the event it hands out (by the operation's context, which
 * the event is executed with next); each result carries it as `extensions.activityId`, and over SSE as the
 * event's `id:` line, so a client that reconnects sends it back as `Last-Event-ID` and resumes after
 * exactly that event (src/schema/types/activity.ts reads the header).
 */
export const activityEventIds = new WeakMap<object, string>();

export function useActivityEventIds(): Plugin {
  return {
    onSubscribe({ args }) {
      return {
        onSubscribeResult() {
          return {
            onNext({ result, setResult }) {
              const id = activityEventIds.get(args.contextValue as object);
              if (id === undefined || !result.data) return;
              activityEventIds.delete(args.contextValue as object);
              setResult({ ...result, extensions: { ...result.extensions, activityId: id } });
            },
          };
        },
      };
    },
    onResultProcess({ resultProcessor, acceptableMediaTypes, setResultProcessor }) {
      if (!resultProcessor || !acceptableMediaTypes.includes('text/event-stream')) return;
      setResultProcessor(async (result, fetchAPI, mediaType) => {
        const res = await resultProcessor(result, fetchAPI, mediaType);
        if (mediaType !== 'text/event-stream' || !res.body) return res;
        return new fetchAPI.Response(res.body.pipeThrough(withIds(fetchAPI)), {
          status: res.status,
          headers: res.headers,
        });
      }, 'text/event-stream');
    },
  };
}

/** The activity id of an SSE `data:` line's result, or undefined. */
export function activityIdOf(line: string): string | undefined {
  if (!line.startsWith('data: ') || !line.includes('"activityId"')) return undefined;
  try {
    const id = (JSON.parse(line.slice(6)) as { extensions?: { activityId?: unknown } }).extensions
      ?.activityId;
    return typeof id === 'string' && /^\d+:\d+$/.test(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

function withIds(fetchAPI: { TextEncoder: typeof TextEncoder; TextDecoder: typeof TextDecoder }) {
  const dec = new fetchAPI.TextDecoder();
  const enc = new fetchAPI.TextEncoder();
  let carry = '';
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      const text = carry + dec.decode(chunk, { stream: true });
      const cut = text.lastIndexOf('\n') + 1;
      carry = text.slice(cut);
      if (cut === 0) return;
      const out = text
        .slice(0, cut)
        .split('\n')
        .map((line) => {
          const id = activityIdOf(line);
          return id ? `id: ${id}\n${line}` : line;
        })
        .join('\n');
      controller.enqueue(enc.encode(out));
    },
    flush(controller) {
      if (carry) controller.enqueue(enc.encode(carry));
    },
  });
}
