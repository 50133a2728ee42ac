import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse } from 'graphql';
import { createYoga } from 'graphql-yoga';

/**
 * A second, tiny subgraph written for the federation test: it knows nothing of chain data and only adds
 * a `label` to Address and a `note` to Transaction, referencing our entities by their natural keys.
 */
export const LABELS_TYPE_DEFS = /* GraphQL */ `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.6", import: ["@key"])

  type Address @key(fields: "chainId address") {
    chainId: String!
    address: String!
    label: String!
  }

  type Transaction @key(fields: "chainId hash") {
    chainId: String!
    hash: String!
    note: String!
  }
`;

export const labelFor = (address: string) => `wallet ${address.slice(2, 8).toLowerCase()}`;
export const noteFor = (hash: string) => `seen ${hash.slice(2, 10).toLowerCase()}`;

export function createLabelsSubgraph() {
  const schema = buildSubgraphSchema({
    typeDefs: parse(LABELS_TYPE_DEFS),
    resolvers: {
      Address: {
        __resolveReference: (ref: { chainId: string; address: string }) => ({
          ...ref,
          label: labelFor(ref.address),
        }),
      },
      Transaction: {
        __resolveReference: (ref: { chainId: string; hash: string }) => ({
          ...ref,
          note: noteFor(ref.hash),
        }),
      },
    } as never,
  });
  return createYoga({ schema, logging: false, landingPage: false });
}
