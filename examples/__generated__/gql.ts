/* eslint-disable */
import * as types from './graphql.js';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "query ExampleAddressTransactions($chainId: String!, $address: String!, $first: Int!, $after: String) {\n  address(chainId: $chainId, address: $address) {\n    address\n    transactions(first: $first, after: $after) {\n      edges {\n        cursor\n        node {\n          hash\n          blockNumber\n          blockTimestampIso\n          from {\n            address\n          }\n          to {\n            address\n          }\n          value\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n}": typeof types.ExampleAddressTransactionsDocument,
    "query ExampleBlockWithTransactions($chainId: String!, $id: String!, $first: Int = 25) {\n  block(chainId: $chainId, id: $id) {\n    number\n    hash\n    timestampIso\n    txCount\n    parent {\n      number\n    }\n    transactions(first: $first) {\n      edges {\n        node {\n          hash\n          from {\n            address\n          }\n          to {\n            address\n          }\n          value\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n}": typeof types.ExampleBlockWithTransactionsDocument,
    "query ExampleAccountState($chainId: String!, $address: String!, $token: String!, $atBlock: String = \"latest\") {\n  address(chainId: $chainId, address: $address) {\n    address\n    state(atBlock: $atBlock) {\n      blockNumber\n      balance\n      nonce\n    }\n  }\n  token: address(chainId: $chainId, address: $token) {\n    state(atBlock: $atBlock) {\n      erc20 {\n        symbol\n        decimals\n        balanceOf(holder: $address)\n      }\n    }\n  }\n}": typeof types.ExampleAccountStateDocument,
};
const documents: Documents = {
    "query ExampleAddressTransactions($chainId: String!, $address: String!, $first: Int!, $after: String) {\n  address(chainId: $chainId, address: $address) {\n    address\n    transactions(first: $first, after: $after) {\n      edges {\n        cursor\n        node {\n          hash\n          blockNumber\n          blockTimestampIso\n          from {\n            address\n          }\n          to {\n            address\n          }\n          value\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n}": types.ExampleAddressTransactionsDocument,
    "query ExampleBlockWithTransactions($chainId: String!, $id: String!, $first: Int = 25) {\n  block(chainId: $chainId, id: $id) {\n    number\n    hash\n    timestampIso\n    txCount\n    parent {\n      number\n    }\n    transactions(first: $first) {\n      edges {\n        node {\n          hash\n          from {\n            address\n          }\n          to {\n            address\n          }\n          value\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n}": types.ExampleBlockWithTransactionsDocument,
    "query ExampleAccountState($chainId: String!, $address: String!, $token: String!, $atBlock: String = \"latest\") {\n  address(chainId: $chainId, address: $address) {\n    address\n    state(atBlock: $atBlock) {\n      blockNumber\n      balance\n      nonce\n    }\n  }\n  token: address(chainId: $chainId, address: $token) {\n    state(atBlock: $atBlock) {\n      erc20 {\n        symbol\n        decimals\n        balanceOf(holder: $address)\n      }\n    }\n  }\n}": types.ExampleAccountStateDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ExampleAddressTransactions($chainId: String!, $address: String!, $first: Int!, $after: String) {\n  address(chainId: $chainId, address: $address) {\n    address\n    transactions(first: $first, after: $after) {\n      edges {\n        cursor\n        node {\n          hash\n          blockNumber\n          blockTimestampIso\n          from {\n            address\n          }\n          to {\n            address\n          }\n          value\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n}"): (typeof documents)["query ExampleAddressTransactions($chainId: String!, $address: String!, $first: Int!, $after: String) {\n  address(chainId: $chainId, address: $address) {\n    address\n    transactions(first: $first, after: $after) {\n      edges {\n        cursor\n        node {\n          hash\n          blockNumber\n          blockTimestampIso\n          from {\n            address\n          }\n          to {\n            address\n          }\n          value\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ExampleBlockWithTransactions($chainId: String!, $id: String!, $first: Int = 25) {\n  block(chainId: $chainId, id: $id) {\n    number\n    hash\n    timestampIso\n    txCount\n    parent {\n      number\n    }\n    transactions(first: $first) {\n      edges {\n        node {\n          hash\n          from {\n            address\n          }\n          to {\n            address\n          }\n          value\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n}"): (typeof documents)["query ExampleBlockWithTransactions($chainId: String!, $id: String!, $first: Int = 25) {\n  block(chainId: $chainId, id: $id) {\n    number\n    hash\n    timestampIso\n    txCount\n    parent {\n      number\n    }\n    transactions(first: $first) {\n      edges {\n        node {\n          hash\n          from {\n            address\n          }\n          to {\n            address\n          }\n          value\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ExampleAccountState($chainId: String!, $address: String!, $token: String!, $atBlock: String = \"latest\") {\n  address(chainId: $chainId, address: $address) {\n    address\n    state(atBlock: $atBlock) {\n      blockNumber\n      balance\n      nonce\n    }\n  }\n  token: address(chainId: $chainId, address: $token) {\n    state(atBlock: $atBlock) {\n      erc20 {\n        symbol\n        decimals\n        balanceOf(holder: $address)\n      }\n    }\n  }\n}"): (typeof documents)["query ExampleAccountState($chainId: String!, $address: String!, $token: String!, $atBlock: String = \"latest\") {\n  address(chainId: $chainId, address: $address) {\n    address\n    state(atBlock: $atBlock) {\n      blockNumber\n      balance\n      nonce\n    }\n  }\n  token: address(chainId: $chainId, address: $token) {\n    state(atBlock: $atBlock) {\n      erc20 {\n        symbol\n        decimals\n        balanceOf(holder: $address)\n      }\n    }\n  }\n}"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;