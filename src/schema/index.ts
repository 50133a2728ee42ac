import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { builder } from './builder.js';
import './scalars.js';
import './types/chain.js';
import './types/block.js';
import './types/transaction.js';
import './types/address.js';

let schema: GraphQLSchema | undefined;

/** The gateway's GraphQL schema (built once). */
export function buildSchema(): GraphQLSchema {
  schema ??= builder.toSchema({ sortSchema: false });
  return schema;
}

/** The SDL committed as `schema/schema.graphql`: sorted, so diffs show only real changes. */
export function printGatewaySchema(): string {
  return `${printSchema(lexicographicSortSchema(buildSchema()))}\n`;
}
