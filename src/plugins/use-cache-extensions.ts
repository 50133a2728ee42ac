import type { Plugin } from 'graphql-yoga';
import type { GatewayContext } from '../context.js';

/**
 * When the upstream failed and a stale cached answer was served instead (stale-if-error), the response
 * says so: `extensions.cache = { stale: true, staleResources: [...] }`, so clients can tell.
 */
export function useCacheExtensions(): Plugin<GatewayContext> {
  return {
    onExecute() {
      return {
        onExecuteDone({ args, result, setResult }) {
          const served = (args.contextValue as GatewayContext).served;
          if (!served || served.stale.size === 0 || !result || Symbol.asyncIterator in result)
            return;
          setResult({
            ...result,
            extensions: {
              ...result.extensions,
              cache: { stale: true, staleResources: [...served.stale].sort() },
            },
          });
        },
      };
    },
  };
}
