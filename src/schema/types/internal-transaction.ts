import {
  INTERNAL_TX_TYPES,
  type InternalTransactionItem,
} from '../../upstream/schemas/evm-transfers.js';
import { builder } from '../builder.js';
import { describedValues } from '../enum-docs.js';
import { exposed } from '../expose.js';
import { addressFields } from './address.js';
import { TransactionRef } from './transaction.js';
import { TransactionPartRef } from './transaction-part.js';
import { partsOfTransaction } from './transfer.js';

export const InternalTransactionTypeEnum = builder.enumType('InternalTransactionType', {
  description: 'The EVM call or create opcode of an internal transaction.',
  values: describedValues(INTERNAL_TX_TYPES, {
    UNKNOWN: 'An opcode the indexer does not name.',
    CALL: 'A message call (CALL).',
    CREATE: 'A contract creation (CREATE).',
    CREATE2: 'A contract creation at a salted address (CREATE2).',
    CREATE3: 'A contract creation through a CREATE3 factory.',
    CALLCODE: "A call running the target's code in the caller's context (CALLCODE).",
    DELEGATECALL:
      "A call running the target's code with the caller's storage and sender (DELEGATECALL).",
    STATICCALL: 'A read-only call (STATICCALL).',
  }),
});

/**
 * A message call or contract creation made by a contract during a transaction. The indexer lists
 * CALL/CALLCODE with a non-zero value and every CREATE/CREATE2/CREATE3 (the rest needs an archive node's debug_ API).
 */
export const InternalTransactionRef = builder
  .objectRef<InternalTransactionItem>('InternalTransaction')
  .implement({
    description:
      'A call or contract creation a contract made during a transaction (valued calls and creations only).',
    interfaces: [TransactionPartRef],
    fields: (t) => ({
      ...addressFields(t, {
        from: 'The calling account or contract.',
        to: 'The called account, or the contract created.',
      }),
      type: t.expose('internalTxType', {
        type: InternalTransactionTypeEnum,
        description: 'The opcode: a call variant or a create.',
      }),
      ...exposed(t, {
        value: ['BigDecimal', 'Native value moved, in wei.'],
        isReverted: ['Boolean', 'True when this internal call reverted.'],
        gasUsed: ['BigDecimal', 'Gas used by the internal call (decimal string).'],
        gasLimit: ['BigDecimal', 'Gas limit given to the internal call (decimal string).'],
      }),
    }),
  });

builder.objectFields(TransactionRef, (t) => ({
  internalTransactions: partsOfTransaction(
    t,
    'internalTransactions',
    InternalTransactionRef,
    'The internal transactions of this transaction the indexer lists (from the full transaction).',
  ),
}));
