import type { Plugin } from 'graphql-yoga';
import type { LiveFeed } from './feed.js';

/** What this plugin reads of the request's context: the heads (chain id to height) its answer was keyed at. */
interface HeadsTouched {
  headsTouched?: Map<string, string>;
}

/**
 * `extensions.heads`: for each live chain whose head keyed a part of the answer, the head it was answered
 * at — `{ chainId, height, ageMs }` (ageMs: since the feed saw that head), like The Graph's `_meta`.
 */
export function useLiveExtensions(feed: LiveFeed): Plugin<HeadsTouched> {
  return {
    onExecute() {
      return {
        onExecuteDone({ args, result, setResult }) {
          const touched = (args.contextValue as HeadsTouched).headsTouched;
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
