import { z } from 'zod';
import { decimal, money } from './evm.js';

/**
 * Interchain (ICM / Teleporter) messages, from the real spec (`ListIcmMessagesResponse`, `getIcmMessage`):
 * a `oneOf` discriminated by `status` — pending, delivered, or delivered from a source chain the indexer
 * does not index (no source transaction then).
 */
export const icmReceipt = z.object({
  receivedMessageNonce: z.string(),
  relayerRewardAddress: z.string(),
});

export const icmRewardDetails = z.object({
  address: z.string(),
  name: z.string(),
  symbol: z.string(),
  decimals: z.number().int(),
  logoUri: z.string().optional(),
  ercType: z.literal('ERC-20'),
  price: money.optional(),
  value: decimal,
});
export type IcmRewardDetails = z.infer<typeof icmRewardDetails>;

export const icmSourceTransaction = z.object({
  txHash: z.string(),
  timestamp: z.number().int(),
  gasSpent: decimal,
});
export type IcmSourceTransaction = z.infer<typeof icmSourceTransaction>;

export const icmDestinationTransaction = z.object({
  txHash: z.string(),
  timestamp: z.number().int(),
  gasSpent: decimal,
  rewardRedeemer: z.string(),
  delivererAddress: z.string(),
});
export type IcmDestinationTransaction = z.infer<typeof icmDestinationTransaction>;

const base = {
  messageId: z.string(),
  icmContractAddress: z.string(),
  sourceBlockchainId: z.string(),
  destinationBlockchainId: z.string(),
  sourceEvmChainId: z.string(),
  destinationEvmChainId: z.string(),
  messageNonce: decimal,
  from: z.string(),
  to: z.string(),
  data: z.string().optional(),
  messageExecuted: z.boolean(),
  receipts: z.array(icmReceipt),
  receiptDelivered: z.boolean(),
  rewardDetails: icmRewardDetails,
};

export const pendingIcmMessage = z.object({
  ...base,
  sourceTransaction: icmSourceTransaction,
  status: z.literal('pending'),
});
export const deliveredIcmMessage = z.object({
  ...base,
  sourceTransaction: icmSourceTransaction,
  destinationTransaction: icmDestinationTransaction,
  status: z.literal('delivered'),
});
export const deliveredSourceNotIndexedIcmMessage = z.object({
  ...base,
  destinationTransaction: icmDestinationTransaction,
  status: z.literal('delivered_source_not_indexed'),
});

export const icmMessage = z.discriminatedUnion('status', [
  pendingIcmMessage,
  deliveredIcmMessage,
  deliveredSourceNotIndexedIcmMessage,
]);
export type IcmMessage = z.infer<typeof icmMessage>;
export type IcmStatus = IcmMessage['status'];

export const listIcmMessagesResponse = z.object({
  messages: z.array(icmMessage),
  nextPageToken: z.string().optional(),
});
