import type { InTransaction } from '../../upstream/schemas/evm-transfers.js';
import { builder } from '../builder.js';
import { isoOf } from '../scalars.js';
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
    chainId: t.exposeString('chainId', {
      description: 'EVM chain id of the chain it happened on (decimal string).',
    }),
    txHash: t.exposeString('txHash', { description: 'Hash of the transaction it happened in.' }),
    blockNumber: t.expose('blockNumber', {
      type: 'BigDecimal',
      description: 'Number of the block it happened in (decimal string).',
    }),
    blockHash: t.exposeString('blockHash', { description: 'Hash of that block, 0x-hex.' }),
    blockTimestamp: t.expose('blockTimestamp', {
      type: 'Timestamp',
      description: 'When that block was proposed, Unix seconds.',
    }),
    blockTimestampIso: t.string({
      resolve: (x) => isoOf(x.blockTimestamp),
      description: '`blockTimestamp` as an ISO 8601 UTC date-time.',
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
