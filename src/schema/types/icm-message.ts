import { brandWithType } from '@pothos/core';
import type { GatewayContext } from '../../context.js';
import { ICM_PAGE_SIZE } from '../../loaders/icm.js';
import { UpstreamError } from '../../upstream/errors.js';
import type { IcmDestinationTransaction, IcmMessage, IcmRewardDetails, IcmStatus } from '../../upstream/schemas/icm.js';
import { builder } from '../builder.js';
import { resolveTokenConnection } from '../connection.js';
import { badInput } from '../errors.js';
import { parseEvmAddress } from '../inputs.js';
import { parseNetwork } from '../primary-inputs.js';
import { AddressRef, type AddressShape } from './address.js';
import { ChainRef } from './chain.js';
import { MoneyRef } from './money.js';
import { TransactionRef } from './transaction.js';

/**
 * An interchain (ICM / Teleporter) message. The upstream answers a `oneOf` by status, so there is one type
 * per status behind the `IcmMessage` interface. Global id: `<Type>:<messageId>`; a message moves from
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

const addressOn = (chainId: string, address: string): AddressShape => ({ chainId, address: address.toLowerCase() });

/** A chain the Data API may not index (an unindexed source L1): null rather than an error. */
async function chainOrNull(ctx: GatewayContext, chainId: string) {
  try {
    return await ctx.loaders.evm.chain.load(chainId);
  } catch (e) {
    if (e instanceof UpstreamError && e.status === 404) return null;
    throw e;
  }
}

export const IcmStatusEnum = builder.enumType('IcmMessageStatus', {
  values: { PENDING: { value: 'pending' }, DELIVERED: { value: 'delivered' }, DELIVERED_SOURCE_NOT_INDEXED: { value: 'delivered_source_not_indexed' } } as const,
});

const ReceiptRef = builder.objectRef<IcmMessage['receipts'][number]>('IcmReceipt').implement({
  description: 'A delivery receipt sent back to the source chain, naming the relayer to reward.',
  fields: (t) => ({ receivedMessageNonce: t.exposeString('receivedMessageNonce'), relayerRewardAddress: t.exposeString('relayerRewardAddress') }),
});

const RewardRef = builder.objectRef<IcmRewardDetails & { chainId: string }>('IcmRewardDetails').implement({
  description: 'The ERC-20 fee offered to the relayer that delivers the message.',
  fields: (t) => ({
    address: t.exposeString('address'),
    name: t.exposeString('name'),
    symbol: t.exposeString('symbol'),
    decimals: t.exposeInt('decimals'),
    logoUri: t.exposeString('logoUri', { nullable: true }),
    ercType: t.exposeString('ercType'),
    price: t.field({ type: MoneyRef, nullable: true, resolve: (r) => r.price ?? null }),
    value: t.expose('value', { type: 'BigDecimal', description: 'In the token’s smallest unit.' }),
    token: t.field({ type: AddressRef, description: 'The fee token contract, on the source chain.', resolve: (r) => addressOn(r.chainId, r.address) }),
  }),
});

const SourceTxRef = builder.objectRef<NonNullable<Extract<IcmMessage, { status: 'pending' }>['sourceTransaction']> & { chainId: string }>('IcmSourceTransaction').implement({
  fields: (t) => ({
    txHash: t.exposeString('txHash'),
    timestamp: t.expose('timestamp', { type: 'Timestamp' }),
    gasSpent: t.expose('gasSpent', { type: 'BigDecimal' }),
    transaction: t.field({ type: TransactionRef, nullable: true, description: 'The sending transaction on the source chain.', resolve: (s) => `${s.chainId}:${s.txHash.toLowerCase()}` }),
  }),
});

const DestinationTxRef = builder.objectRef<IcmDestinationTransaction & { chainId: string }>('IcmDestinationTransaction').implement({
  fields: (t) => ({
    txHash: t.exposeString('txHash'),
    timestamp: t.expose('timestamp', { type: 'Timestamp' }),
    gasSpent: t.expose('gasSpent', { type: 'BigDecimal' }),
    rewardRedeemer: t.field({ type: AddressRef, resolve: (d) => addressOn(d.chainId, d.rewardRedeemer) }),
    delivererAddress: t.field({ type: AddressRef, resolve: (d) => addressOn(d.chainId, d.delivererAddress) }),
    transaction: t.field({ type: TransactionRef, nullable: true, description: 'The delivering transaction on the destination chain.', resolve: (d) => `${d.chainId}:${d.txHash.toLowerCase()}` }),
  }),
});

export const IcmMessageRef = builder.interfaceRef<IcmMessage>('IcmMessage').implement({
  description: 'An interchain message between two Avalanche chains, typed by its delivery status.',
  interfaces: [builder.nodeInterfaceRef()],
  resolveType: (m) => TYPE_OF[m.status],
  fields: (t) => ({
    messageId: t.exposeString('messageId'),
    status: t.expose('status', { type: IcmStatusEnum }),
    icmContractAddress: t.exposeString('icmContractAddress'),
    sourceBlockchainId: t.exposeString('sourceBlockchainId'),
    destinationBlockchainId: t.exposeString('destinationBlockchainId'),
    sourceEvmChainId: t.exposeString('sourceEvmChainId'),
    destinationEvmChainId: t.exposeString('destinationEvmChainId'),
    messageNonce: t.expose('messageNonce', { type: 'BigDecimal' }),
    from: t.exposeString('from'),
    to: t.exposeString('to'),
    data: t.exposeString('data', { nullable: true, description: 'The message payload (hex).' }),
    messageExecuted: t.exposeBoolean('messageExecuted'),
    receipts: t.field({ type: [ReceiptRef], resolve: (m) => m.receipts }),
    receiptDelivered: t.exposeBoolean('receiptDelivered'),
    rewardDetails: t.field({ type: RewardRef, resolve: (m) => ({ ...m.rewardDetails, chainId: m.sourceEvmChainId }) }),
    sender: t.field({ type: AddressRef, description: 'The sender on the source chain.', resolve: (m) => addressOn(m.sourceEvmChainId, m.from) }),
    recipient: t.field({ type: AddressRef, description: 'The recipient on the destination chain.', resolve: (m) => addressOn(m.destinationEvmChainId, m.to) }),
    sourceChain: t.field({ type: ChainRef, nullable: true, description: 'Null when the Data API does not index the source chain.', resolve: (m, _a, ctx) => chainOrNull(ctx, m.sourceEvmChainId) }),
    destinationChain: t.field({ type: ChainRef, nullable: true, resolve: (m, _a, ctx) => chainOrNull(ctx, m.destinationEvmChainId) }),
  }),
});

export function parseMessageId(id: string, argument: string): string {
  const v = id.trim();
  if (!/^(0x)?[0-9a-fA-F]{64}$/.test(v)) throw badInput(argument, `${argument} must be an ICM message id: 64 hex digits`);
  return v.toLowerCase();
}

type MessageOf<S extends IcmStatus> = Extract<IcmMessage, { status: S }>;

const nodeOptions = (status: IcmStatus) => ({
  interfaces: [IcmMessageRef],
  id: { resolve: (m: IcmMessage) => m.messageId },
  // Branded by the loader with its current status' type; Relay must not re-brand it with the id's.
  brandLoadedObjects: false,
  loadMany: (ids: readonly string[], ctx: GatewayContext) => ids.map(async (id) => branded(await ctx.loaders.icm.message.load(parseMessageId(id, 'id'))) as never),
  isTypeOf: (m: unknown) => (m as IcmMessage).status === status,
});

export const PendingIcmMessageRef = builder.objectRef<MessageOf<'pending'>>('PendingIcmMessage');
builder.node(PendingIcmMessageRef, {
  ...nodeOptions('pending'),
  description: 'A message sent but not yet delivered.',
  fields: (t) => ({ sourceTransaction: t.field({ type: SourceTxRef, resolve: (m) => ({ ...m.sourceTransaction, chainId: m.sourceEvmChainId }) }) }),
});

export const DeliveredIcmMessageRef = builder.objectRef<MessageOf<'delivered'>>('DeliveredIcmMessage');
builder.node(DeliveredIcmMessageRef, {
  ...nodeOptions('delivered'),
  description: 'A message delivered to its destination chain.',
  fields: (t) => ({
    sourceTransaction: t.field({ type: SourceTxRef, resolve: (m) => ({ ...m.sourceTransaction, chainId: m.sourceEvmChainId }) }),
    destinationTransaction: t.field({ type: DestinationTxRef, resolve: (m) => ({ ...m.destinationTransaction, chainId: m.destinationEvmChainId }) }),
  }),
});

export const DeliveredSourceNotIndexedIcmMessageRef = builder.objectRef<MessageOf<'delivered_source_not_indexed'>>('DeliveredSourceNotIndexedIcmMessage');
builder.node(DeliveredSourceNotIndexedIcmMessageRef, {
  ...nodeOptions('delivered_source_not_indexed'),
  description: 'A message delivered from a source chain the Data API does not index (so no source transaction).',
  fields: (t) => ({
    destinationTransaction: t.field({ type: DestinationTxRef, resolve: (m) => ({ ...m.destinationTransaction, chainId: m.destinationEvmChainId }) }),
  }),
});

const IcmMessageConnectionRef = builder.connectionObject(
  { type: IcmMessageRef, name: 'IcmMessageConnection', description: 'A page of interchain messages, newest first.' },
  { name: 'IcmMessageEdge', description: 'An interchain message and its cursor.' },
);

function icmConnection(ctx: GatewayContext, address: string, networkArg: string | null | undefined, args: Parameters<typeof resolveTokenConnection>[0]) {
  const network = networkArg == null ? undefined : parseNetwork(networkArg, 'network');
  return resolveTokenConnection<IcmMessage>(args, ctx.connections, {
    listKey: `icm|${address}|${network ?? ''}`,
    pageSize: ICM_PAGE_SIZE,
    itemKey: (m) => `${m.messageId}|${m.status}`,
    // A message's status changes: cursors resume in the live list, finding their message by id.
    mutableItems: true,
    idOf: (m) => m.messageId,
    fetchPage: async (pageToken) => {
      const page = await ctx.loaders.icm.messagesPage.load({ address, network, pageToken });
      for (const m of page.items) ctx.loaders.icm.message.prime(m.messageId, m);
      return { items: page.items.map((m) => branded({ ...m })), nextPageToken: page.nextPageToken };
    },
  });
}

const networkArg = { description: 'mainnet, fuji or testnet (the same as fuji). Default: every network.' };

builder.queryField('icmMessages', (t) =>
  t.connection(
    {
      type: IcmMessageRef,
      nullable: true,
      description: 'Interchain messages sent or received by an EVM address on any chain, newest first. Forward paging only.',
      args: { address: t.arg.string({ required: true, description: 'EVM address (0x + 40 hex).' }), network: t.arg.string(networkArg) },
      resolve: (_root, args, ctx) => icmConnection(ctx, parseEvmAddress(args.address, 'address'), args.network, args),
    },
    IcmMessageConnectionRef,
  ),
);

builder.objectFields(AddressRef, (t) => ({
  icmMessages: t.connection(
    {
      type: IcmMessageRef,
      nullable: true,
      description: 'Interchain messages this address sent or received, on any chain, newest first. Forward paging only.',
      args: { network: t.arg.string(networkArg) },
      resolve: (a, args, ctx) => icmConnection(ctx, a.address, args.network, args),
    },
    IcmMessageConnectionRef,
  ),
}));

