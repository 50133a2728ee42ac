import { badInput } from '../../errors.js';
import type { SignatureAggregation } from '../../upstream/schemas/primary.js';
import type { SignatureAggregationBody } from '../../upstream/signature-aggregator.js';
import { argTable } from '../arg-table.js';
import { builder } from '../builder.js';
import {
  parseCb58Id,
  parseHexBytes,
  parseNetwork,
  parsePercent,
  parseSubnetIdHexOrCb58,
} from '../primary-inputs.js';
import { NetworkRef } from './network.js';

/**
 * Warp signature aggregation through the Data API. Both routes gather fresh validator signatures, so they
 * bypass the loaders and the shared cache entirely (resource class `never`): they call the upstream client
 * directly, once per request, without retries, and mark the response uncacheable for the response cache.
 */
const SignedMessageRef = builder.objectRef<SignatureAggregation>('SignedWarpMessage').implement({
  description:
    'A Warp message with the aggregated BLS signature of its signing subnet’s validators.',
  fields: (t) => ({
    signedMessage: t.exposeString('signedMessage', { description: 'Hex-encoded signed message.' }),
  }),
});

/** The aggregator's default quorum when none is given. */
const DEFAULT_QUORUM = 67;

builder.mutationField('aggregateSignatures', (t) =>
  t.field({
    type: SignedMessageRef,
    nullable: true,
    description:
      'Aggregates validator signatures for a Warp message (or the message a justification implies). Never cached.',
    args: argTable(t.arg, {
      network: ['String!', 'mainnet, fuji or testnet.'],
      message: [
        'String',
        'The unsigned Warp message, hex (0x optional). Give it, a justification, or both.',
      ],
      justification: ['String', 'Hex (0x optional) justification for an L1 validator-set message.'],
      signingSubnetId: [
        'String',
        'Subnet whose validators sign: CB58 or 32 bytes hex. Default: the source chain’s subnet.',
      ],
      quorumPercentage: [
        'Int',
        'Percent (0–100) of the signing subnet weight that must sign. Default 67.',
      ],
      quorumPercentageBuffer: [
        'Int',
        'Extra percent (0–100) of weight to try for; with quorumPercentage at most 100. Default 0.',
      ],
      pChainHeight: [
        'Int',
        'Use the validator set at this P-Chain height (≥ 0). Default 0: the proposed height.',
      ],
    }),
    resolve: (_root, args, ctx) => {
      const network = parseNetwork(args.network, 'network');
      if (args.message == null && args.justification == null)
        throw badInput('message', 'Give a message, a justification, or both');
      const body: SignatureAggregationBody = {};
      if (args.message != null) body.message = parseHexBytes(args.message, 'message');
      if (args.justification != null)
        body.justification = parseHexBytes(args.justification, 'justification');
      if (args.signingSubnetId != null)
        body.signingSubnetId = parseSubnetIdHexOrCb58(args.signingSubnetId, 'signingSubnetId');
      body.quorumPercentage = parsePercent(args.quorumPercentage, 'quorumPercentage');
      body.quorumPercentageBuffer = parsePercent(
        args.quorumPercentageBuffer,
        'quorumPercentageBuffer',
      );
      if ((body.quorumPercentage ?? DEFAULT_QUORUM) + (body.quorumPercentageBuffer ?? 0) > 100) {
        throw badInput(
          'quorumPercentageBuffer',
          `quorumPercentage (${body.quorumPercentage ?? `default ${DEFAULT_QUORUM}`}) plus quorumPercentageBuffer must be at most 100`,
        );
      }
      if (args.pChainHeight != null) {
        if (args.pChainHeight < 0) throw badInput('pChainHeight', 'pChainHeight must be 0 or more');
        body.pChainHeight = args.pChainHeight;
      }
      ctx.served.markUncacheable();
      return ctx.signatureAggregator.aggregate(network, body, { scope: ctx.scope });
    },
  }),
);

builder.objectFields(NetworkRef, (t) => ({
  aggregatedSignatures: t.field({
    type: SignedMessageRef,
    nullable: true,
    description:
      'The signed Warp message of an L1-related P-Chain or X-Chain transaction, aggregated now. Never cached.',
    args: argTable(t.arg, {
      txHash: ['String!', 'A P/X-Chain transaction hash (CB58).'],
    }),
    resolve: (network, args, ctx) => {
      const txHash = parseCb58Id(args.txHash, 'txHash', 'transaction hash');
      ctx.served.markUncacheable();
      return ctx.signatureAggregator.forTransaction(network.name, txHash, { scope: ctx.scope });
    },
  }),
}));
