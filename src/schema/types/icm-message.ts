import { brandWithType } from '@pothos/core';
import type { GatewayContext } from '../../context.js';
import { badInput } from '../../errors.js';
import { isUpstreamStatus } from '../../upstream/errors.js';
import type { IcmMessage, IcmStatus } from '../../upstream/schemas/icm.js';
import { builder } from '../builder.js';
import type { ObjectFields } from '../builder-types.js';
import { exposed, ref, refList } from '../expose.js';
import { AddressRef, addressOn } from './address.js';
import { ChainRef } from './chain.js';
import { DestinationTxRef, ReceiptRef, RewardRef, SourceTxRef } from './icm-message-parts.js';

/**
 * An interchain (ICM / Teleporter) message. The upstream answers a `oneOf` by status, so there is one type
 * per status behind the `IcmMessage` interface. Global id: `IcmMessage:<messageId>`, whatever the status
 * (src/schema/global-id.ts: a client cache keeps one object as the message moves); a message moves from
 * pending to delivered, and refetching an id returns it in its current status, typed accordingly.
 */
const TYPE_OF: Record<IcmStatus, string> = {
  pending: 'PendingIcmMessage',
  delivered: 'DeliveredIcmMessage',
  delivered_source_not_indexed: 'DeliveredSourceNotIndexedIcmMessage',
};

export function branded(m: IcmMessage): IcmMessage {
  brandWithType(m, TYPE_OF[m.status] as never);
  return m;
}

/** A chain the Data API may not index (an unindexed source L1): null rather than an error. */
async function chainOrNull(ctx: GatewayContext, chainId: string) {
  try {
    return await ctx.loaders.evm.chain.load(chainId);
  } catch (e) {
    if (isUpstreamStatus(e, 404)) return null;
    throw e;
  }
}

export const IcmStatusEnum = builder.enumType('IcmMessageStatus', {
  description: 'Where an interchain message is in its delivery.',
  values: {
    PENDING: { value: 'pending', description: 'Sent on the source chain, not yet delivered.' },
    DELIVERED: {
      value: 'delivered',
      description: 'Delivered on the destination chain; both transactions are known.',
    },
    DELIVERED_SOURCE_NOT_INDEXED: {
      value: 'delivered_source_not_indexed',
      description:
        'Delivered, but the Data API does not index the source chain: only the destination transaction is known.',
    },
  } as const,
});

export const IcmMessageRef = builder.interfaceRef<IcmMessage>('IcmMessage').implement({
  description: 'An interchain message between two Avalanche chains, typed by its delivery status.',
  interfaces: [builder.nodeInterfaceRef()],
  resolveType: (m) => TYPE_OF[m.status],
  fields: (t) => ({
    messageId: t.exposeString('messageId', {
      description: "ICM (Teleporter) message id, 32 bytes of hex; also this object's natural key.",
    }),
    ...exposed(t, {
      status: ref(
        IcmStatusEnum,
        'Delivery status: pending, delivered, or delivered from a source the Data API does not index.',
      ),
      icmContractAddress: [
        'EvmAddress',
        'Address of the ICM (Teleporter) messenger contract, lower-case 0x-hex.',
      ],
      sourceBlockchainId: ['String', 'CB58 blockchain id of the source chain.'],
      destinationBlockchainId: ['String', 'CB58 blockchain id of the destination chain.'],
      sourceEvmChainId: ['String', 'EVM chain id of the source chain (decimal string).'],
      destinationEvmChainId: ['String', 'EVM chain id of the destination chain (decimal string).'],
      messageNonce: [
        'BigDecimal',
        'Nonce of the message at the messenger contract (decimal string).',
      ],
      from: ['EvmAddress', 'Sender address on the source chain (lower-case 0x-hex).'],
      to: ['EvmAddress', 'Recipient address on the destination chain (lower-case 0x-hex).'],
      data: ['String?', 'The message payload (hex).'],
      messageExecuted: [
        'Boolean',
        'True when the message was executed on the destination chain (false when its execution failed and may be retried).',
      ],
      receipts: refList(
        ReceiptRef,
        'Delivery receipts carried back by this message for earlier messages; empty when none.',
      ),
    }),
    receiptDelivered: t.exposeBoolean('receiptDelivered', {
      description:
        'True once the receipt of this message has been delivered back to the source chain.',
    }),
    rewardDetails: t.field({
      type: RewardRef,
      description: 'The fee offered to the relayer (ERC-20 token and amount).',
      resolve: (m) => ({ ...m.rewardDetails, chainId: m.sourceEvmChainId }),
    }),
    sender: t.field({
      type: AddressRef,
      description: 'The sender on the source chain.',
      resolve: (m) => addressOn(m.sourceEvmChainId, m.from),
    }),
    recipient: t.field({
      type: AddressRef,
      description: 'The recipient on the destination chain.',
      resolve: (m) => addressOn(m.destinationEvmChainId, m.to),
    }),
    sourceChain: t.field({
      type: ChainRef,
      nullable: true,
      description: 'Null when the Data API does not index the source chain.',
      resolve: (m, _a, ctx) => chainOrNull(ctx, m.sourceEvmChainId),
    }),
    destinationChain: t.field({
      type: ChainRef,
      nullable: true,
      description: 'Null when the Data API does not index the destination chain.',
      resolve: (m, _a, ctx) => chainOrNull(ctx, m.destinationEvmChainId),
    }),
  }),
});

export function parseMessageId(id: string, argument: string): string {
  const v = id.trim();
  if (!/^(0x)?[0-9a-fA-F]{64}$/.test(v))
    throw badInput(argument, `${argument} must be an ICM message id: 64 hex digits`);
  return v.toLowerCase();
}

type MessageOf<S extends IcmStatus> = Extract<IcmMessage, { status: S }>;

const nodeOptions = (status: IcmStatus) => ({
  interfaces: [IcmMessageRef],
  id: { resolve: (m: IcmMessage) => m.messageId },
  // Branded by the loader with its current status' type; Relay must not re-brand it with the id's.
  brandLoadedObjects: false,
  loadMany: (ids: readonly string[], ctx: GatewayContext) =>
    ids.map(
      async (id) => branded(await ctx.loaders.icm.message.load(parseMessageId(id, 'id'))) as never,
    ),
  isTypeOf: (m: unknown) => (m as IcmMessage).status === status,
});

/** The sending transaction, on the source chain (a pending and a delivered message show it). */
const sourceTransaction = <S extends MessageOf<'pending'> | MessageOf<'delivered'>>(
  t: ObjectFields<S>,
) => ({
  sourceTransaction: t.field({
    type: SourceTxRef,
    description: 'The sending transaction on the source chain.',
    resolve: (m) => ({ ...m.sourceTransaction, chainId: m.sourceEvmChainId }),
  }),
});

/** The delivering transaction, on the destination chain (both delivered kinds show it). */
const destinationTransaction = <
  S extends MessageOf<'delivered'> | MessageOf<'delivered_source_not_indexed'>,
>(
  t: ObjectFields<S>,
) => ({
  destinationTransaction: t.field({
    type: DestinationTxRef,
    description: 'The delivering transaction on the destination chain.',
    resolve: (m) => ({ ...m.destinationTransaction, chainId: m.destinationEvmChainId }),
  }),
});

export const PendingIcmMessageRef = builder.objectRef<MessageOf<'pending'>>('PendingIcmMessage');
builder.node(PendingIcmMessageRef, {
  ...nodeOptions('pending'),
  description: 'A message sent but not yet delivered.',
  fields: (t) => ({
    ...sourceTransaction(t),
  }),
});

export const DeliveredIcmMessageRef =
  builder.objectRef<MessageOf<'delivered'>>('DeliveredIcmMessage');
builder.node(DeliveredIcmMessageRef, {
  ...nodeOptions('delivered'),
  description: 'A message delivered to its destination chain.',
  fields: (t) => ({
    ...sourceTransaction(t),
    ...destinationTransaction(t),
  }),
});

export const DeliveredSourceNotIndexedIcmMessageRef = builder.objectRef<
  MessageOf<'delivered_source_not_indexed'>
>('DeliveredSourceNotIndexedIcmMessage');
builder.node(DeliveredSourceNotIndexedIcmMessageRef, {
  ...nodeOptions('delivered_source_not_indexed'),
  description:
    'A message delivered from a source chain the Data API does not index (so no source transaction).',
  fields: (t) => ({
    ...destinationTransaction(t),
  }),
});
