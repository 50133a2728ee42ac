import { type GraphQLSchema, lexicographicSortSchema, printSchema } from 'graphql';
import { builder } from './builder.js';
import { costDirectives, costSpecLink, declareBuiltField } from './cost-spec.js';
import { withCostDirectives } from './print-cost.js';
import './scalars.js';
import './types/chain.js';
import './types/block.js';
import './types/transaction.js';
import './types/transaction-logs.js';
import { guardEntitiesField } from './federation.js';
import { guardServiceField } from './service-sdl.js';
import './types/address.js';
import './types/money.js';
import './types/token.js';
import './types/transfer.js';
import './types/internal-transaction.js';
import './types/address-lists.js';
import './types/balance.js';
import './types/contract.js';
import './types/network.js';
import './types/validator.js';
import './types/l1-validator.js';
import './types/primary-balance.js';
import './types/blockchain.js';
import './types/subnet.js';
import './types/primary-address-utxos.js';
import './types/primary-address-activity.js';
import './types/avax-supply.js';
import './federation-primary-net.js';
import './types/staking-transaction.js';
import './types/staking-transaction-list.js';
import './types/network-validators.js';
import './types/delegator.js';
import './types/network-rewards.js';
import './types/network-details.js';
import './types/primary-transaction.js';
import './types/primary-block.js';
import './types/x-chain-vertex.js';
import './types/x-chain-asset-transactions.js';
import './types/c-chain-atomic-transaction.js';
import './types/subnet-metrics.js';
import './types/icm-message.js';
import './types/icm-message-lists.js';
import './types/metrics.js';
import './types/network-metrics.js';
import './types/l1-fee-metrics.js';
import './types/metrics-chains.js';
import './types/signature-aggregation.js';
import './types/network-node.js';
import './types/network-node-peers.js';
import './types/network-node-validators.js';
import './types/x-chain.js';
import './types/c-chain.js';
import './types/evm-state.js';
import './types/node-admin.js';
import './types/node-admin-mutations.js';
import './types/portfolio.js';
import './types/token-lists.js';
import './types/nft-collection.js';
import './types/latest-across-chains.js';
import './types/subscription.js';
import './types/activity.js';
import './types/icm-subscription.js';

let schema: GraphQLSchema | undefined;

/** The gateway's GraphQL schema (built once). */
export function buildSchema(): GraphQLSchema {
  // A federation v2 subgraph schema (adds `_service` and `_entities`); it serves standalone clients too.
  // `_entities` guarded: every representation checked before any resolver starts (src/schema/federation.ts).
  // `_service` guarded: without the admin fields in production unless the admin token is sent (service-sdl.ts).
  schema ??= guardServiceField(
    guardEntitiesField(
      builder.toSubGraphSchema({
        linkUrl: 'https://specs.apollo.dev/federation/v2.9',
        federationDirectives: [
          '@key',
          '@shareable',
          '@external',
          '@requires',
          '@provides',
          '@tag',
          '@inaccessible',
        ],
        sortSchema: false,
        directives: costDirectives(),
        extensions: { directives: [costSpecLink] },
      }),
    ),
  );
  declareBuiltField(schema, 'Query', '_entities');
  return schema;
}

/** The SDL committed as `schema/schema.graphql`: sorted, so diffs show only real changes. */
export function printGatewaySchema(): string {
  const sorted = lexicographicSortSchema(buildSchema());
  return `${withCostDirectives(printSchema(sorted), sorted)}\n`;
}
