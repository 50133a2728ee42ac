import { brandWithType } from '@pothos/core';
import type { GatewayContext } from '../../context.js';
import { ICM_PAGE_SIZE } from '../../loaders/icm.js';
import type { IcmListFilter } from '../../upstream/data-api-icm.js';
import { UpstreamError } from '../../upstream/errors.js';
import type {
  IcmDestinationTransaction,
  IcmMessage,
  IcmRewardDetails,
  IcmStatus,
} from '../../upstream/schemas/icm.js';
import { builder } from '../builder.js';
import { resolveTokenConnection } from '../connection.js';
import { badInput } from '../errors.js';
import { parseChainId, parseEvmAddress } from '../inputs.js';
import { parseNetwork } from '../primary-inputs.js';

const BLOCKCHAIN_ID = /^[1-9A-HJ-NP-Za-km-z]{40,60}$/;
const parseBlockchainId = (v: string, argument: string) => {
  if (BLOCKCHAIN_ID.test(v.trim())) return v.trim();
  throw badInput(argument, `${argument} must be a CB58 blockchain id`);
};

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

const addressOn = (chainId: string, address: string): AddressShape => ({
  chainId,
  address: address.toLowerCase(),
});

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

const ReceiptRef = builder.objectRef<IcmMessage['receipts'][number]>('IcmReceipt').implement({
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

const RewardRef = builder
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

const SourceTxRef = builder
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

const DestinationTxRef = builder
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

export const IcmMessageRef = builder.interfaceRef<IcmMessage>('IcmMessage').implement({
  description: 'An interchain message between two Avalanche chains, typed by its delivery status.',
  interfaces: [builder.nodeInterfaceRef()],
  resolveType: (m) => TYPE_OF[m.status],
  fields: (t) => ({
    messageId: t.exposeString('messageId', {
      description: "ICM (Teleporter) message id, 32 bytes of hex; also this object's natural key.",
    }),
    status: t.expose('status', {
      type: IcmStatusEnum,
      description:
        'Delivery status: pending, delivered, or delivered from a source the Data API does not index.',
    }),
    icmContractAddress: t.exposeString('icmContractAddress', {
      description: 'Address of the ICM (Teleporter) messenger contract, 0x-hex.',
    }),
    sourceBlockchainId: t.exposeString('sourceBlockchainId', {
      description: 'CB58 blockchain id of the source chain.',
    }),
    destinationBlockchainId: t.exposeString('destinationBlockchainId', {
      description: 'CB58 blockchain id of the destination chain.',
    }),
    sourceEvmChainId: t.exposeString('sourceEvmChainId', {
      description: 'EVM chain id of the source chain (decimal string).',
    }),
    destinationEvmChainId: t.exposeString('destinationEvmChainId', {
      description: 'EVM chain id of the destination chain (decimal string).',
    }),
    messageNonce: t.expose('messageNonce', {
      type: 'BigDecimal',
      description: 'Nonce of the message at the messenger contract (decimal string).',
    }),
    from: t.exposeString('from', { description: 'Sender address on the source chain (0x-hex).' }),
    to: t.exposeString('to', {
      description: 'Recipient address on the destination chain (0x-hex).',
    }),
    data: t.exposeString('data', { nullable: true, description: 'The message payload (hex).' }),
    messageExecuted: t.exposeBoolean('messageExecuted', {
      description:
        'True when the message was executed on the destination chain (false when its execution failed and may be retried).',
    }),
    receipts: t.field({
      type: [ReceiptRef],
      description:
        'Delivery receipts carried back by this message for earlier messages; empty when none.',
      resolve: (m) => m.receipts,
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

export const PendingIcmMessageRef = builder.objectRef<MessageOf<'pending'>>('PendingIcmMessage');
builder.node(PendingIcmMessageRef, {
  ...nodeOptions('pending'),
  description: 'A message sent but not yet delivered.',
  fields: (t) => ({
    sourceTransaction: t.field({
      type: SourceTxRef,
      description: 'The sending transaction on the source chain.',
      resolve: (m) => ({ ...m.sourceTransaction, chainId: m.sourceEvmChainId }),
    }),
  }),
});

export const DeliveredIcmMessageRef =
  builder.objectRef<MessageOf<'delivered'>>('DeliveredIcmMessage');
builder.node(DeliveredIcmMessageRef, {
  ...nodeOptions('delivered'),
  description: 'A message delivered to its destination chain.',
  fields: (t) => ({
    sourceTransaction: t.field({
      type: SourceTxRef,
      description: 'The sending transaction on the source chain.',
      resolve: (m) => ({ ...m.sourceTransaction, chainId: m.sourceEvmChainId }),
    }),
    destinationTransaction: t.field({
      type: DestinationTxRef,
      description: 'The delivering transaction on the destination chain.',
      resolve: (m) => ({ ...m.destinationTransaction, chainId: m.destinationEvmChainId }),
    }),
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
    destinationTransaction: t.field({
      type: DestinationTxRef,
      description: 'The delivering transaction on the destination chain.',
      resolve: (m) => ({ ...m.destinationTransaction, chainId: m.destinationEvmChainId }),
    }),
  }),
});

const IcmMessageConnectionRef = builder.connectionObject(
  {
    type: IcmMessageRef,
    name: 'IcmMessageConnection',
    description: 'A page of interchain messages, newest first.',
  },
  { name: 'IcmMessageEdge', description: 'An interchain message and its cursor.' },
);

function icmConnection(
  ctx: GatewayContext,
  address: string,
  networkArg: string | null | undefined,
  args: Parameters<typeof resolveTokenConnection>[0],
) {
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

const networkArg = {
  description: 'mainnet, fuji or testnet (the same as fuji). Default: every network.',
};

/** The global list (`listIcmMessages`): every filter of the route, checked before any call. */
function globalIcmConnection(ctx: GatewayContext, args: GlobalIcmArgs) {
  const opt = <T>(v: string | null | undefined, parse: (v: string) => T) =>
    v == null ? undefined : parse(v);
  const f: IcmListFilter = {
    sourceBlockchainId: opt(args.sourceBlockchainId, (v) => parseChainId(v, 'sourceBlockchainId')),
    destinationBlockchainId: opt(args.destinationBlockchainId, (v) =>
      parseChainId(v, 'destinationBlockchainId'),
    ),
    blockchainId: opt(args.blockchainId, (v) => parseBlockchainId(v, 'blockchainId')),
    from: opt(args.from, (v) => parseEvmAddress(v, 'from')),
    to: opt(args.to, (v) => parseEvmAddress(v, 'to')),
    network: opt(args.network, (v) => parseNetwork(v, 'network')),
  };
  const key = Object.entries(f)
    .map(([k, v]) => `${k}=${v ?? ''}`)
    .join('&');
  return resolveTokenConnection<IcmMessage>(args, ctx.connections, {
    listKey: `icmAll|${key}`,
    pageSize: ICM_PAGE_SIZE,
    itemKey: (m) => `${m.messageId}|${m.status}`,
    mutableItems: true,
    idOf: (m) => m.messageId,
    fetchPage: async (pageToken) => {
      const page = await ctx.loaders.icm.allMessagesPage.load({ ...f, pageToken });
      for (const m of page.items) ctx.loaders.icm.message.prime(m.messageId, m);
      return { items: page.items.map((m) => branded({ ...m })), nextPageToken: page.nextPageToken };
    },
  });
}

type GlobalIcmArgs = Parameters<typeof resolveTokenConnection>[0] & {
  sourceBlockchainId?: string | null;
  destinationBlockchainId?: string | null;
  blockchainId?: string | null;
  from?: string | null;
  to?: string | null;
  network?: string | null;
};
const GLOBAL_FILTERS = [
  'sourceBlockchainId',
  'destinationBlockchainId',
  'blockchainId',
  'from',
  'to',
] as const;
const optional = (description: string) => ({ required: false, description }) as const;

builder.queryField('icmMessages', (t) =>
  t.connection(
    {
      type: IcmMessageRef,
      nullable: true,
      description:
        'Interchain messages, newest first. With `address`: those an EVM address sent or ' +
        'received on any chain (`listIcmMessagesByAddress`, which takes only `network` ' +
        'besides). Without: every message, filtered by source, destination, chain, sender and ' +
        'recipient (`listIcmMessages`). Forward paging only.',
      args: {
        address: t.arg.string(
          optional(
            'EVM address (0x + 40 hex): messages it sent or received. Not combinable with the ' +
              'other filters.',
          ),
        ),
        sourceBlockchainId: t.arg.string(
          optional('Only messages sent from this chain: its CB58 blockchain id or EVM chain id.'),
        ),
        destinationBlockchainId: t.arg.string(
          optional('Only messages sent to this chain: its CB58 blockchain id or EVM chain id.'),
        ),
        blockchainId: t.arg.string(
          optional('Only messages from or to this chain (CB58 blockchain id).'),
        ),
        from: t.arg.string(optional('Only messages sent by this EVM address.')),
        to: t.arg.string(optional('Only messages to this EVM address (the recipient).')),
        network: t.arg.string(networkArg),
      },
      resolve: (_root, args, ctx) => {
        if (args.address == null) return globalIcmConnection(ctx, args);
        const other = GLOBAL_FILTERS.find((k) => args[k] != null);
        if (other) {
          const why = 'the by-address list takes only network';
          throw badInput(other, `${other} cannot be combined with address (${why})`);
        }
        return icmConnection(ctx, parseEvmAddress(args.address, 'address'), args.network, args);
      },
    },
    IcmMessageConnectionRef,
  ),
);

const MESSAGE_ID = /^(0x)?[0-9a-fA-F]{64}$/;

builder.queryField('icmMessage', (t) =>
  t.field({
    type: IcmMessageRef,
    nullable: true,
    description: 'One interchain message by its id (`getIcmMessage`), typed by its current status.',
    args: {
      id: t.arg.string({
        required: true,
        description: 'The ICM (Teleporter) message id: 32 bytes of hex, 0x optional.',
      }),
    },
    resolve: async (_root, { id }, ctx) => {
      const v = id.trim();
      if (!MESSAGE_ID.test(v)) {
        throw badInput('id', 'id must be an ICM message id: 64 hex digits, optionally 0x-prefixed');
      }
      const message = await ctx.loaders.icm.message.load(v.replace(/^0x/, '').toLowerCase());
      return branded({ ...message });
    },
  }),
);

builder.objectFields(AddressRef, (t) => ({
  icmMessages: t.connection(
    {
      type: IcmMessageRef,
      nullable: true,
      description:
        'Interchain messages this address sent or received, on any chain, newest first. Forward paging only.',
      args: { network: t.arg.string(networkArg) },
      resolve: (a, args, ctx) => icmConnection(ctx, a.address, args.network, args),
    },
    IcmMessageConnectionRef,
  ),
}));
