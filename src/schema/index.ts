import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { builder } from './builder.js';
import './scalars.js';
import './types/chain.js';
import './types/block.js';
import './types/transaction.js';
import { guardEntitiesField } from './federation.js';
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
import './types/staking-transaction.js';
import './types/icm-message.js';
import './types/metrics.js';
import './types/signature-aggregation.js';
import './types/network-node.js';
import './types/network-node-peers.js';
import './types/network-node-validators.js';
import './types/x-chain.js';
import './types/c-chain.js';
import './types/node-admin.js';
import './types/node-admin-mutations.js';
import './types/subscription.js';

let schema: GraphQLSchema | undefined;

/** The gateway's GraphQL schema (built once). */
export function buildSchema(): GraphQLSchema {
  // A federation v2 subgraph schema (adds `_service` and `_entities`); it serves standalone clients too.
  // `_entities` guarded: every representation checked before any resolver starts (src/schema/federation.ts).
  schema ??= guardEntitiesField(
    builder.toSubGraphSchema({
      linkUrl: 'https://specs.apollo.dev/federation/v2.6',
      federationDirectives: ['@key', '@shareable', '@external', '@requires', '@provides', '@tag', '@inaccessible'],
      sortSchema: false,
    }),
  );
  return schema;
}

/** The SDL committed as `schema/schema.graphql`: sorted, so diffs show only real changes. */
export function printGatewaySchema(): string {
  return `${printSchema(lexicographicSortSchema(buildSchema()))}\n`;
}
