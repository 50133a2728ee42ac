import type { Plugin } from 'graphql-yoga';
import type { GatewayContext } from '../context.js';
import { releaseLoaders } from '../loaders/index.js';

/**
 * When an execution is over (its single result, or the last part of an incremental one), the request's
 * loaders let go of what they read (`releaseLoaders`): the context itself lives on for a while after
 * the answer (Pothos keys its own DataLoaders by it), and would otherwise keep all of it. Registered
 * after every other execution plugin, so their `onExecuteDone` hooks have run. Subscriptions are not
 * released here: they execute again for each event, for as long as the client listens.
 */
export function useLoaderRelease(): Plugin<GatewayContext> {
  return {
    onExecute({ args }) {
      const ctx = args.contextValue as Partial<GatewayContext>;
      const loaders = ctx.loaders;
      if (!loaders) return;
      return {
        onExecuteDone({ result }) {
          if (result && Symbol.asyncIterator in result)
            return { onEnd: () => releaseLoaders(loaders) };
          releaseLoaders(loaders);
        },
      };
    },
  };
}
