import type { GatewayContext } from '../../context.js';
import { badInput } from '../../errors.js';
import { ICM_PAGE_SIZE } from '../../loaders/icm.js';
import type { PagedList } from '../../loaders/request-loader.js';
import type { IcmListFilter } from '../../upstream/data-api-icm.js';
import type { IcmMessage } from '../../upstream/schemas/icm.js';
import { argTable } from '../arg-table.js';
import { builder } from '../builder.js';
import { type ConnectionArgs, resolveTokenConnection } from '../connection.js';
import { parseChainId, parseEvmAddress } from '../inputs.js';
import { parseNetwork } from '../primary-inputs.js';
import { AddressRef } from './address.js';
import { branded, IcmMessageRef } from './icm-message.js';

/**
 * The lists of interchain messages: an address's (`listIcmMessagesByAddress`), the global one with its
 * filters (`listIcmMessages`), and one message by id (`getIcmMessage`).
 */
const BLOCKCHAIN_ID = /^[1-9A-HJ-NP-Za-km-z]{40,60}$/;
const parseBlockchainId = (v: string, argument: string) => {
  if (BLOCKCHAIN_ID.test(v.trim())) return v.trim();
  throw badInput(argument, `${argument} must be a CB58 blockchain id`);
};

const IcmMessageConnectionRef = builder.connectionObject(
  {
    type: IcmMessageRef,
    name: 'IcmMessageConnection',
    description: 'A page of interchain messages, newest first.',
  },
  { name: 'IcmMessageEdge', description: 'An interchain message and its cursor.' },
);

/**
 * A list of messages. A message's status changes: cursors resume in the live list,
 * finding their message by id. Every message read is primed for `icmMessage(id)`.
 */
function messagesConnection(
  ctx: GatewayContext,
  args: ConnectionArgs,
  pages: PagedList<IcmMessage>,
) {
  return resolveTokenConnection<IcmMessage>(args, ctx.connections, {
    pages: pages.map((page) => {
      for (const m of page.items) ctx.loaders.icm.message.prime(m.messageId, m);
      return { items: page.items.map((m) => branded({ ...m })), nextPageToken: page.nextPageToken };
    }),
    pageSize: ICM_PAGE_SIZE,
    itemKey: (m) => `${m.messageId}|${m.status}`,
    mutableItems: true,
    idOf: (m) => m.messageId,
  });
}

function icmConnection(
  ctx: GatewayContext,
  address: string,
  networkArg: string | null | undefined,
  args: ConnectionArgs,
) {
  const network = networkArg == null ? undefined : parseNetwork(networkArg, 'network');
  return messagesConnection(ctx, args, ctx.loaders.icm.messagesPage.list({ address, network }));
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
  return messagesConnection(ctx, args, ctx.loaders.icm.allMessagesPage.list(f));
}

type GlobalIcmArgs = ConnectionArgs & {
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
    args: argTable(t.arg, {
      id: ['String!', 'The ICM (Teleporter) message id: 32 bytes of hex, 0x optional.'],
    }),
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
