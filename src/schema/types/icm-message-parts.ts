import type {
  IcmDestinationTransaction,
  IcmMessage,
  IcmRewardDetails,
} from '../../upstream/schemas/icm.js';
import { builder } from '../builder.js';
import { AddressRef, type AddressShape } from './address.js';
import { MoneyRef } from './money.js';
import { TransactionRef } from './transaction.js';

/**
 * The parts of an interchain message: its receipts, the relayer's reward, and the transactions that sent
 * and delivered it (each bound to the chain it happened on, so its addresses and transaction resolve there).
 */
export const addressOn = (chainId: string, address: string): AddressShape => ({
  chainId,
  address: address.toLowerCase(),
});

export const ReceiptRef = builder
  .objectRef<IcmMessage['receipts'][number]>('IcmReceipt')
  .implement({
    description: 'A delivery receipt sent back to the source chain, naming the relayer to reward.',
    fields: (t) => ({
      receivedMessageNonce: t.exposeString('receivedMessageNonce', {
        description: 'Nonce of the delivered message this receipt acknowledges (decimal string).',
      }),
      relayerRewardAddress: t.exposeString('relayerRewardAddress', {
        description: 'Address (0x-hex) that may redeem the relayer reward for that delivery.',
      }),
    }),
  });

export const RewardRef = builder
  .objectRef<IcmRewardDetails & { chainId: string }>('IcmRewardDetails')
  .implement({
    description: 'The ERC-20 fee offered to the relayer that delivers the message.',
    fields: (t) => ({
      address: t.exposeString('address', {
        description: 'Fee token contract address (0x-hex, checksum case) on the source chain.',
      }),
      name: t.exposeString('name', { description: 'Fee token name.' }),
      symbol: t.exposeString('symbol', { description: 'Fee token symbol.' }),
      decimals: t.exposeInt('decimals', {
        description: 'Decimals of the fee token: divide `value` by 10^decimals for whole tokens.',
      }),
      logoUri: t.exposeString('logoUri', {
        nullable: true,
        description: "URL of the fee token's logo; null when none.",
      }),
      ercType: t.exposeString('ercType', {
        description: 'Token standard of the fee token (e.g. "ERC-20").',
      }),
      price: t.field({
        type: MoneyRef,
        nullable: true,
        description: 'Fee token price now; null when the upstream has none.',
        resolve: (r) => r.price ?? null,
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

export const SourceTxRef = builder
  .objectRef<
    NonNullable<Extract<IcmMessage, { status: 'pending' }>['sourceTransaction']> & {
      chainId: string;
    }
  >('IcmSourceTransaction')
  .implement({
    description: 'The transaction on the source chain that sent the message.',
    fields: (t) => ({
      txHash: t.exposeString('txHash', { description: 'Transaction hash, 0x-hex.' }),
      timestamp: t.expose('timestamp', {
        type: 'Timestamp',
        description: 'When it was included, Unix seconds.',
      }),
      gasSpent: t.expose('gasSpent', {
        type: 'BigDecimal',
        description:
          "Gas spent by the transaction, in wei of the chain's native token (decimal string).",
      }),
      transaction: t.field({
        type: TransactionRef,
        nullable: true,
        description: 'The sending transaction on the source chain.',
        resolve: (s) => `${s.chainId}:${s.txHash.toLowerCase()}`,
      }),
    }),
  });

export const DestinationTxRef = builder
  .objectRef<IcmDestinationTransaction & { chainId: string }>('IcmDestinationTransaction')
  .implement({
    description: 'The transaction on the destination chain that delivered the message.',
    fields: (t) => ({
      txHash: t.exposeString('txHash', { description: 'Transaction hash, 0x-hex.' }),
      timestamp: t.expose('timestamp', {
        type: 'Timestamp',
        description: 'When it was included, Unix seconds.',
      }),
      gasSpent: t.expose('gasSpent', {
        type: 'BigDecimal',
        description:
          "Gas spent by the transaction, in wei of the chain's native token (decimal string).",
      }),
      rewardRedeemer: t.field({
        type: AddressRef,
        description: 'Address that may redeem the relayer reward, on the destination chain.',
        resolve: (d) => addressOn(d.chainId, d.rewardRedeemer),
      }),
      delivererAddress: t.field({
        type: AddressRef,
        description: 'Address of the relayer that delivered the message, on the destination chain.',
        resolve: (d) => addressOn(d.chainId, d.delivererAddress),
      }),
      transaction: t.field({
        type: TransactionRef,
        nullable: true,
        description: 'The delivering transaction on the destination chain.',
        resolve: (d) => `${d.chainId}:${d.txHash.toLowerCase()}`,
      }),
    }),
  });
