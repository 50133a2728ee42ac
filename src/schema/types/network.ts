import { builder } from '../builder.js';
import { type GatewayNetwork, parseNetwork } from '../primary-inputs.js';

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
  values: {
    mainnet: { value: 'mainnet', description: 'Avalanche mainnet (network id 1).' },
    fuji: { value: 'fuji', description: 'The Fuji test network (network id 5).' },
  } as const,
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
