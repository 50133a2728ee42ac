import type { Plugin } from 'graphql-yoga';
import type { GatewayContext } from '../context.js';
import type { LiveFeed } from './feed.js';

/**
 * `extensions.heads`: for each live chain whose head keyed a part of the answer, the head it was answered
 * at — `{ chainId, height, ageMs }` (ageMs: since the feed saw that head), like The Graph's `_meta`.
 */
export function useLiveExtensions(feed: LiveFeed): Plugin<GatewayContext> {
  return {
    onExecute() {
      return {
        onExecuteDone({ args, result, setResult }) {
          const touched = (args.contextValue as GatewayContext).headsTouched;
          if (!touched || touched.size === 0 || !result || Symbol.asyncIterator in result) return;
          const heads = [...touched]
            .map(([chainId, height]) => feed.headAt(chainId, height))
            .filter((h) => h !== undefined);
          if (heads.length > 0)
            setResult({ ...result, extensions: { ...result.extensions, heads } });
        },
      };
    },
  };
}
