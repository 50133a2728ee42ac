import { INTERNAL_TX_TYPES, type InternalTransactionItem } from '../../upstream/schemas/evm-transfers.js';
import { builder } from '../builder.js';
import { AddressRef, addressOf } from './address.js';
import { TransactionRef, detailOf } from './transaction.js';
import { TransactionPartRef } from './transaction-part.js';
import { inTransaction } from './transfer.js';

export const InternalTransactionTypeEnum = builder.enumType('InternalTransactionType', {
  description: 'The EVM call or create opcode of an internal transaction.',
  values: INTERNAL_TX_TYPES,
});

/**
 * A message call or contract creation made by a contract during a transaction. The indexer lists
 * CALL/CALLCODE with a non-zero value and every CREATE/CREATE2/CREATE3 (the rest needs an archive node's debug_ API).
 */
export const InternalTransactionRef = builder.objectRef<InternalTransactionItem>('InternalTransaction').implement({
  description: 'A call or contract creation a contract made during a transaction (valued calls and creations only).',
  interfaces: [TransactionPartRef],
  fields: (t) => ({
    from: t.field({ type: AddressRef, resolve: (x) => addressOf(x.chainId, x.from) }),
    to: t.field({ type: AddressRef, resolve: (x) => addressOf(x.chainId, x.to) }),
    type: t.expose('internalTxType', { type: InternalTransactionTypeEnum }),
    value: t.expose('value', { type: 'BigDecimal', description: 'Native value moved, in wei.' }),
    isReverted: t.exposeBoolean('isReverted'),
    gasUsed: t.expose('gasUsed', { type: 'BigDecimal' }),
    gasLimit: t.expose('gasLimit', { type: 'BigDecimal' }),
  }),
});

builder.objectFields(TransactionRef, (t) => ({
  internalTransactions: t.field({
    type: [InternalTransactionRef],
    nullable: true,
    description: 'The internal transactions of this transaction the indexer lists (from the full transaction).',
    resolve: async (tx, _args, ctx) => {
      const d = await detailOf(tx, ctx);
      return (d.internalTransactions ?? []).map((x) => ({ ...x, ...inTransaction(d.nativeTransaction) }));
    },
  }),
}));
