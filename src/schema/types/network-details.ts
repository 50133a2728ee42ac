import type { GatewayContext } from '../../context.js';
import type { GatewayNetwork } from '../../upstream/schemas/primary.js';
import type { NetworkDetails } from '../../upstream/schemas/primary-rewards.js';
import { builder } from '../builder.js';
import { exposed, refList } from '../expose.js';
import { parseNetwork } from '../primary-inputs.js';
import { NetworkRef } from './network.js';

/** `Network.details`: the network's staking totals (Data API `getNetworkDetails`). */
type ValidatorTotals = NetworkDetails['validatorDetails'];
type Distribution = ValidatorTotals['stakingDistributionByVersion'][number];

const DistributionRef = builder.objectRef<Distribution>('StakingDistribution').implement({
  description: 'Active stake of validators running one AvalancheGo version.',
  fields: (t) =>
    exposed(t, {
      version: ['String', 'AvalancheGo version of the nodes.'],
      amountStaked: ['BigDecimal', 'Stake of those validators, in nAVAX.'],
      validatorCount: ['Int', 'How many validators run it.'],
    }),
});

const ValidatorTotalsRef = builder.objectRef<ValidatorTotals>('NetworkValidatorTotals').implement({
  description: 'The active validator set, in totals.',
  fields: (t) => ({
    ...exposed(t, {
      validatorCount: ['Int', 'Active validators.'],
      totalAmountStaked: ['BigDecimal', 'Their own stake, in nAVAX.'],
      estimatedAnnualStakingReward: [
        'BigDecimal',
        'Potential rewards of the active validations and delegations, in nAVAX.',
      ],
      stakingDistributionByVersion: refList(
        DistributionRef,
        'Active stake by AvalancheGo version.',
      ),
    }),
    stakingRatio: t.expose('stakingRatio', {
      type: 'BigDecimal',
      description: 'Active stake over the current supply (0–1).',
    }),
  }),
});

const DelegatorTotalsRef = builder
  .objectRef<NetworkDetails['delegatorDetails']>('NetworkDelegatorTotals')
  .implement({
    description: 'Active delegations, in totals.',
    fields: (t) =>
      exposed(t, {
        delegatorCount: ['Int', 'Active delegations.'],
        totalAmountStaked: ['BigDecimal', 'Stake delegated, in nAVAX.'],
      }),
  });

type Details = NetworkDetails & { network: GatewayNetwork };

async function loadDetails(id: string, ctx: GatewayContext): Promise<Details> {
  const network = parseNetwork(id, 'id');
  return { ...(await ctx.loaders.staking.networkDetails.load(network)), network };
}

/** A Relay node (id: the network's name), so the cost model prices it as the call it is. */
const NetworkDetailsRef = builder.objectRef<Details>('NetworkDetails');
builder.node(NetworkDetailsRef, {
  description: "The network's staking totals.",
  id: { resolve: (d) => d.network },
  loadMany: (ids, ctx) => ids.map((id) => loadDetails(id, ctx)),
  fields: (t) => ({
    validators: t.field({
      type: ValidatorTotalsRef,
      description: 'Active validators.',
      resolve: (d) => d.validatorDetails,
    }),
    delegators: t.field({
      type: DelegatorTotalsRef,
      description: 'Active delegations.',
      resolve: (d) => d.delegatorDetails,
    }),
  }),
});

builder.objectFields(NetworkRef, (t) => ({
  details: t.field({
    type: NetworkDetailsRef,
    nullable: true,
    description:
      "The network's staking totals: validators, delegations, stake by version " +
      '(`getNetworkDetails`).',
    resolve: (n, _a, ctx) => loadDetails(n.name, ctx),
  }),
}));
