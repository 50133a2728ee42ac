import type { GatewayContext } from '../../context.js';
import { gqlError } from '../../errors.js';
import type { AvaxSupply } from '../../upstream/schemas/primary-net.js';
import { builder } from '../builder.js';
import { exposed } from '../expose.js';
import { NetworkRef } from './network.js';

/**
 * The AVAX supply (`getAvaxSupply`): published by the Data API for mainnet only (the route takes no
 * network). A Relay node (`AvaxSupply:mainnet`), so it is refetchable and priced as one call.
 */
const supplyOf = async (ctx: GatewayContext, network: string) => {
  if (network !== 'mainnet')
    throw gqlError('NOT_FOUND', 'The AVAX supply is published for mainnet only');
  return {
    ...(await ctx.loaders.primaryNet.avaxSupply.load('mainnet')),
    network: 'mainnet' as const,
  };
};

export const AvaxSupplyRef = builder.objectRef<AvaxSupply & { network: 'mainnet' }>('AvaxSupply');

builder.node(AvaxSupplyRef, {
  description:
    'The AVAX supply of mainnet, in AVAX (decimal strings with fractions), as the Data API last ' +
    'computed it.',
  id: { resolve: (s) => s.network },
  loadOne: (id, ctx) => supplyOf(ctx, id),
  fields: (t) =>
    exposed(t, {
      circulatingSupply: ['String', 'AVAX in circulation.'],
      totalSupply: ['String', 'Total AVAX supply.'],
      totalPBurned: [
        'String',
        'AVAX burned on the P-Chain (fees, L1 validator fees, over-spent inputs).',
      ],
      totalCBurned: ['String', 'AVAX burned on the C-Chain (EVM and atomic transactions).'],
      totalXBurned: ['String', 'AVAX burned on the X-Chain.'],
      totalStaked: ['String', 'AVAX staked.'],
      totalLocked: ['String', 'AVAX locked.'],
      totalRewards: ['String', 'AVAX paid as staking rewards.'],
      genesisUnlock: ['String', 'AVAX unlocked at genesis.'],
      l1ValidatorFees: ['String', 'AVAX paid as L1 validator fees.'],
      lastUpdated: ['String', 'When the upstream last computed these figures (ISO 8601).'],
    }),
});

builder.objectFields(NetworkRef, (t) => ({
  avaxSupply: t.field({
    type: AvaxSupplyRef,
    nullable: true,
    description:
      'The AVAX supply (`getAvaxSupply`); mainnet only (NOT_FOUND on fuji: the upstream ' +
      'publishes none).',
    resolve: (network, _args, ctx) => supplyOf(ctx, network.name),
  }),
}));
