import type { Plugin } from 'graphql-yoga';

/**
 * Resumption ids for `addressActivity`: `<block>:<transaction index>` of each event, whatever fields the
 * client selected. The stream notes the id of the event it hands out (by the operation's context, which
 * the event is executed with next); each result carries it as `extensions.activityId`, and over SSE as
 * the event's `id:` line (use-event-ids.ts's SSE processor writes it), so a client that reconnects sends
 * it back as `Last-Event-ID` and resumes after exactly that event (src/schema/types/activity.ts reads it).
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
  };
}
