import type { Plugin } from 'graphql-yoga';
import type { GatewayContext } from '../context.js';
import { releaseLoaders } from '../loaders/index.js';

/**
 * The fields of a request's context that hold its HTTP exchange: Yoga's `request` and `params`, the
 * Node adapter's (and direct execution's) `req` and `res`.
 */
const EXCHANGE = ['request', 'params', 'req', 'res'] as const;

/**
 * A request's context outlives its answer: Pothos keeps the context's own DataLoaders in WeakMaps
 * keyed by the context (and their batch functions hold it), and on Node 20's V8 such an entry survives
 * every young-generation collection (see telemetry/request-slot.ts), so whatever the context still
 * holds is promoted to the old generation before a full collection frees it. So:
 * - when an execution is over (its single result, or the last part of an incremental one), the
 *   request's loaders let go of what they read (`releaseLoaders`);
 * - when, in addition, its HTTP response is over (`res` closed), the context lets go of the exchange
 *   (`EXCHANGE`: the request and its headers, the Node request and response).
 * Measured in `bench/README.md` ("What a request leaves behind"). Registered after every other
 * execution plugin, so their `onExecuteDone` hooks have run first. Subscriptions are not released here:
 * they execute again for each event, for as long as the client listens.
 */
export function useLoaderRelease(): Plugin<GatewayContext> {
  return {
    onExecute({ args }) {
      const ctx = args.contextValue as unknown as Partial<GatewayContext> & Record<string, unknown>;
      const loaders = ctx.loaders;
      if (!loaders) return;
      // Both must be over before the exchange is let go of: an answer still streaming reads it.
      let executed = false;
      let closed = false;
      // Set to undefined rather than deleted: a delete turns the object into a dictionary, which is
      // itself an allocation that would live as long as the context.
      const forgetExchange = () => {
        for (const field of EXCHANGE) ctx[field] = undefined;
      };
      const res = ctx.res as
        | { once?: (event: 'close', listener: () => void) => unknown }
        | undefined;
      res?.once?.('close', () => {
        closed = true;
        if (executed) forgetExchange();
      });
      const release = () => {
        releaseLoaders(loaders);
        executed = true;
        if (closed) forgetExchange();
      };
      return {
        onExecuteDone({ result }) {
          if (result && Symbol.asyncIterator in result) return { onEnd: release };
          release();
        },
      };
    },
  };
}
