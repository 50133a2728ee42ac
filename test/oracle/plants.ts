import type { CachePolicy } from '../../src/cache/policy.js';
import type { TouchVersions } from '../../src/live/touches.js';
import { DERIVATIONS, type Derivations } from '../../src/upstream/derivations.js';

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

/** Defects of freshness by change, planted through the live feed's address touches (`--touch` runs). */
export const TOUCH_PLANTS = {
  /** Every block read as touching nothing: an address's entries outlive the transactions that change it. */
  'touch-ignored': (t: TouchVersions): TouchVersions => ({
    window: t.window,
    versionOf: (recent, address) =>
      t.versionOf(
        recent.map((h) =>
          h.touch === undefined
            ? h
            : { ...h, touch: { addresses: [], bloom: `0x${'0'.repeat(512)}` } },
        ),
        address,
      ),
  }),
} satisfies Record<string, (t: TouchVersions) => TouchVersions>;

/** Defects of facts held by lists, planted through the cached gateway's derivations. */
export const DERIVATION_PLANTS = {
  /**
   * Every successful transaction read as a plain transfer: a contract call's page (call data, transfers,
   * internal transactions, ICM message) derived from its list item, which holds none of them.
   */
  'contract-call-derived': (): Derivations => ({
    ...DERIVATIONS,
    plainTransfer: (tx) => tx.txStatus === '1',
  }),
} satisfies Record<string, () => Derivations>;

/**
 * Defects of freshness by change planted through the cached gateway's settings (`--touch` runs): each is
 * an environment the cached gateway runs with instead of the default.
 */
export const TOUCH_ENV_PLANTS = {
  /**
   * The Data API's indexing lag ignored (DATA_API_INDEX_LAG_BLOCKS=0): an address's answer read right
   * after a block touched it, before the Data API indexed that block, is kept as if it showed the touch.
   */
  'lag-ignored': { DATA_API_INDEX_LAG_BLOCKS: '0' },
} satisfies Record<string, Record<string, string>>;

/** Every plant's name (`--plant`). */
export type PlantName =
  | keyof typeof PLANTS
  | keyof typeof TOUCH_PLANTS
  | keyof typeof TOUCH_ENV_PLANTS
  | keyof typeof DERIVATION_PLANTS;
