import type {
  IcmDestinationTransaction,
  IcmMessage,
  IcmRewardDetails,
} from '../../upstream/schemas/icm.js';
import { builder } from '../builder.js';
import type { ObjectFields } from '../builder-types.js';
import { exposed, refOrNull, TOKEN_METADATA } from '../expose.js';
import { AddressRef, addressFields, addressOn } from './address.js';
import { MoneyRef } from './money.js';
import { TransactionRef } from './transaction.js';

/**
 * The parts of an interchain message: its receipts, the relayer's reward, and the transactions that sent
 * and delivered it (each bound to the chain it happened on, so its addresses and transaction resolve there).
 */

export const ReceiptRef = builder
  .objectRef<IcmMessage['receipts'][number]>('IcmReceipt')
  .implement({
    description: 'A delivery receipt sent back to the source chain, naming the relayer to reward.',
    fields: (t) =>
      exposed(t, {
        receivedMessageNonce: [
          'String',
          'Nonce of the delivered message this receipt acknowledges (decimal string).',
        ],
        relayerRewardAddress: [
          'EvmAddress',
          'Address (lower-case 0x-hex) that may redeem the relayer reward for that delivery.',
        ],
      }),
  });

export const RewardRef = builder
  .objectRef<IcmRewardDetails & { chainId: string }>('IcmRewardDetails')
  .implement({
    description: 'The ERC-20 fee offered to the relayer that delivers the message.',
    fields: (t) => ({
      ...exposed(t, {
        address: [
          'EvmAddress',
          'Fee token contract address (lower-case 0x-hex) on the source chain.',
        ],
        ...TOKEN_METADATA,
        ercType: ['String', 'Token standard of the fee token (e.g. "ERC-20").'],
        price: refOrNull(MoneyRef, 'Fee token price now; null when the upstream has none.'),
      }),
      value: t.expose('value', {
        type: 'BigDecimal',
        description: 'In the token’s smallest unit.',
      }),
      token: t.field({
        type: AddressRef,
        description: 'The fee token contract, on the source chain.',
        resolve: (r) => addressOn(r.chainId, r.address),
      }),
    }),
  });

/** What the sending and the delivering transaction of a message both show of themselves. */
const ICM_TX_ROWS = {
  txHash: ['String', 'Transaction hash, 0x-hex.'],
  timestamp: ['Timestamp', 'When it was included, Unix seconds.'],
  gasSpent: [
    'BigDecimal',
    "Gas spent by the transaction, in wei of the chain's native token (decimal string).",
  ],
} as const;

/** The EVM transaction a message's transaction is, on the chain it happened on. */
const transactionOn = <S extends { chainId: string; txHash: string }>(
  t: ObjectFields<S>,
  description: string,
) => ({
  transaction: t.field({
    type: TransactionRef,
    nullable: true,
    description,
    resolve: (tx) => `${tx.chainId}:${tx.txHash.toLowerCase()}`,
  }),
});

export const SourceTxRef = builder
  .objectRef<
    NonNullable<Extract<IcmMessage, { status: 'pending' }>['sourceTransaction']> & {
      chainId: string;
    }
  >('IcmSourceTransaction')
  .implement({
    description: 'The transaction on the source chain that sent the message.',
    fields: (t) => ({
      ...exposed(t, ICM_TX_ROWS),
      ...transactionOn(t, 'The sending transaction on the source chain.'),
    }),
  });

export const DestinationTxRef = builder
  .objectRef<IcmDestinationTransaction & { chainId: string }>('IcmDestinationTransaction')
  .implement({
    description: 'The transaction on the destination chain that delivered the message.',
    fields: (t) => ({
      ...exposed(t, ICM_TX_ROWS),
      ...addressFields(t, {
        rewardRedeemer: 'Address that may redeem the relayer reward, on the destination chain.',
        delivererAddress:
          'Address of the relayer that delivered the message, on the destination chain.',
      }),
      ...transactionOn(t, 'The delivering transaction on the destination chain.'),
    }),
  });
