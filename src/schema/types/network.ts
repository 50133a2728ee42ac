import type { ObjectRef } from '@pothos/core';
import type { GatewayContext } from '../../context.js';
import type { PagedList } from '../../loaders/request-loader.js';
import { builder } from '../builder.js';
import type { GatewayTypes, ObjectFields } from '../builder-types.js';
import { type pageDocs, resolveTokenConnection } from '../connection.js';
import { conventionalValues } from '../enum-docs.js';
import { type GatewayNetwork, parseCb58Id, parseNetwork } from '../primary-inputs.js';

/**
 * The primary network (P-Chain, X-Chain, C-Chain and their validators) of mainnet or fuji. It holds no
 * data of its own: its fields (validators, L1 validators, staking transactions, balances) are added by
 * their own files with `builder.objectFields(NetworkRef, ...)`. Global id: `Network:<mainnet|fuji>`.
 */
export interface NetworkShape {
  name: GatewayNetwork;
}

export const NetworkNameEnum = builder.enumType('NetworkName', {
  description: 'An Avalanche network. The Data API also calls fuji "testnet".',
  values: conventionalValues({
    mainnet: { value: 'mainnet', description: 'Avalanche mainnet (network id 1).' },
    fuji: { value: 'fuji', description: 'The Fuji test network (network id 5).' },
  } as const),
});

/** The order of a list by time, as the Data API's `sortOrder` takes it. */
export const SortOrderEnum = builder.enumType('SortOrder', {
  description: 'The order of a list by time.',
  values: {
    ASC: { value: 'asc', description: 'Oldest first.' },
    DESC: { value: 'desc', description: 'Newest first.' },
  } as const,
});

/** The one argument of a list ordered by creation time: its order. */
export const creationOrderArgs = builder.args((t) => ({
  sortOrder: t.field({
    type: SortOrderEnum,
    description: 'By creation time. Default: the upstream’s (newest first).',
  }),
}));

/** The one argument of a list ordered by block time: its order. */
export const blockTimeOrderArgs = builder.args((t) => ({
  sortOrder: t.field({ type: SortOrderEnum, description: 'By block time. Default: newest first.' }),
}));

export const NetworkRef = builder.objectRef<NetworkShape>('Network');

const what = (argument: string) => argument.replace(/Id$/, ' id');

/**
 * A Network field reading one entity by its CB58 id (checksum verified before any call); the loader
 * answers NOT_FOUND when the network has none by that id.
 */
export const byCb58Id = <T>(
  t: ObjectFields<NetworkShape>,
  options: {
    type: ObjectRef<GatewayTypes, T>;
    /** The argument's name, `<thing>Id`: errors call it "<thing> id". */
    argument: `${string}Id`;
    /** What the field reads; the NOT_FOUND sentence is added. */
    description: string;
    load: (ctx: GatewayContext, network: GatewayNetwork, id: string) => Promise<T>;
  },
) =>
  t.field({
    type: options.type,
    nullable: true,
    description: `${options.description}; NOT_FOUND when the network has none by that id.`,
    args: {
      [options.argument]: t.arg.string({
        required: true,
        description: `CB58 ${what(options.argument)} (checksum verified).`,
      }),
    },
    // Pothos cannot resolve its list-or-item conditional for a generic T: the load gives one T.
    resolve: (network, args, ctx) =>
      options.load(
        ctx,
        network.name,
        parseCb58Id(args[options.argument] as string, options.argument, what(options.argument)),
      ) as never,
  });

type SortOrder = (typeof SortOrderEnum)['$inferType'];

/**
 * A Network connection over a list in creation order (`creationOrderArgs`), forward paging only, each
 * item bound to the network it was read on.
 */
export const createdList = <T extends object>(
  t: ObjectFields<NetworkShape>,
  options: {
    /** A loadable node ref: it takes its id as well as its shape. */
    type: ObjectRef<GatewayTypes, string | (NoInfer<T> & { network: GatewayNetwork })>;
    description: string;
    list: (ctx: GatewayContext, network: GatewayNetwork, sortOrder?: SortOrder) => PagedList<T>;
    pageSize: number;
    itemKey: (item: NoInfer<T>) => string;
    /** The connection's and its edge's descriptions (`pageDocs`). */
    docs: ReturnType<typeof pageDocs>;
  },
) =>
  t.connection(
    {
      type: options.type,
      nullable: true,
      description: `${options.description} Forward paging only (first/after).`,
      args: creationOrderArgs,
      resolve: (network, args, ctx) =>
        resolveTokenConnection(args, ctx.connections, {
          pages: options
            .list(ctx, network.name, args.sortOrder ?? undefined)
            .mapItems((item) => ({ ...item, network: network.name })),
          pageSize: options.pageSize,
          itemKey: options.itemKey,
        }) as never,
    },
    ...options.docs,
  );

builder.node(NetworkRef, {
  description:
    'The Avalanche primary network of mainnet or fuji: validators, L1 validators, P-Chain staking and balances.',
  id: { resolve: (n) => n.name },
  // Nothing to fetch: a network is valid when its name is.
  loadOne: (id) => ({ name: parseNetwork(id, 'id') }),
  fields: (t) => ({
    name: t.expose('name', {
      type: NetworkNameEnum,
      description: 'Which network: mainnet or fuji.',
    }),
    isTestnet: t.boolean({ description: 'True for fuji.', resolve: (n) => n.name === 'fuji' }),
  }),
});

builder.queryField('network', (t) =>
  t.field({
    type: NetworkRef,
    description:
      'The primary network by name: mainnet, fuji or testnet (testnet and fuji are the same network).',
    args: { name: t.arg.string({ required: true, description: 'mainnet, fuji or testnet.' }) },
    resolve: (_root, { name }) => ({ name: parseNetwork(name, 'name') }),
  }),
);
