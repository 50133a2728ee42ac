import type { InTransaction } from '../../upstream/schemas/evm-transfers.js';
import { builder } from '../builder.js';
import { exposed } from '../expose.js';
import { BlockRef } from './block.js';
import { TransactionRef } from './transaction.js';

/**
 * Something that happened inside a transaction (a token transfer, an internal call): where it sits and
 * the links to its transaction (through the transaction loader) and its block (through the block loader).
 */
export const TransactionPartRef = builder.interfaceRef<InTransaction>('TransactionPart').implement({
  description:
    'Something that happened inside a transaction: a token transfer or an internal transaction.',
  fields: (t) => ({
    ...exposed(t, {
      chainId: ['String', 'EVM chain id of the chain it happened on (decimal string).'],
      txHash: ['String', 'Hash of the transaction it happened in.'],
      blockNumber: ['BigDecimal', 'Number of the block it happened in (decimal string).'],
      blockHash: ['String', 'Hash of that block, 0x-hex.'],
      blockTimestamp: ['Timestamp+Iso', 'When that block was proposed, Unix seconds.'],
    }),
    transaction: t.field({
      type: TransactionRef,
      nullable: true,
      description:
        'The transaction it happened in (the full transaction, through the transaction loader).',
      resolve: (x) => `${x.chainId}:${x.txHash.toLowerCase()}`,
    }),
    block: t.field({
      type: BlockRef,
      nullable: true,
      description: 'The block it happened in (through the block loader).',
      resolve: (x) => `${x.chainId}:${x.blockNumber}`,
    }),
  }),
});
