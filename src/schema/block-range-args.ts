import { builder } from './builder.js';

/**
 * The block range an address's or a contract's list takes (startBlock inclusive, endBlock exclusive),
 * checked by `parseBlockRange` before any upstream call. `endBlock` says what the list leaves out.
 */
export const blockRangeArgs = (endBlockDescription: string) =>
  builder.args((t) => ({
    startBlock: t.field({
      type: 'BigDecimal',
      required: false,
      description: 'First block of the range (inclusive).',
    }),
    endBlock: t.field({ type: 'BigDecimal', required: false, description: endBlockDescription }),
  }));
