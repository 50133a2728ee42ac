import type { CachePolicy } from '../../src/cache/policy.js';

/** Wrong policies a run can plant to prove its judge fails them (the oracle's, `npm run chaos -- --plant`). */
export const PLANTS = {
  /** The latest-blocks list classed immutable (7 days, and so not keyed by a live head): new blocks never show. */
  'latest-blocks-immutable': (p: CachePolicy): CachePolicy => ({
    ...p,
    ttlFor: (resource, opts) =>
      resource === 'data.latestBlocks' ? p.ttlFor('data.block') : p.ttlFor(resource, opts),
    classOf: (resource) =>
      resource === 'data.latestBlocks' ? p.classOf('data.block') : p.classOf(resource),
  }),
  /** The EVM head (`latest`) classed final: every `latest` read stays at the first head it saw. */
  'stale-evm-head': (p: CachePolicy): CachePolicy => ({
    ...p,
    ttlFor: (resource, opts) =>
      resource === 'node.evm.eth_blockNumber' || resource === 'node.evm.headState'
        ? p.ttlFor('node.evm.state')
        : p.ttlFor(resource, opts),
  }),
} satisfies Record<string, (p: CachePolicy) => CachePolicy>;
