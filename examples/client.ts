import { Client, fetchExchange, type OperationResult } from '@urql/core';
import {
  ExampleAddressTransactionsDocument,
  type ExampleAddressTransactionsQuery,
  type ExampleAddressTransactionsQueryVariables,
  ExampleBlockWithTransactionsDocument,
} from './__generated__/graphql.js';

/**
 * A typed client of the gateway: urql with the operations in examples/operations/, typed by GraphQL Codegen's
 * client preset (`npm run codegen`). Run it against a gateway:
 *
 *   GATEWAY_URL=http://localhost:4000/graphql npx tsx examples/client.ts 43114 0xAddress
 *
 * It pages through the address's transactions with the connection's cursors, then shows the block of the
 * newest one with its transactions. The test suite runs the same functions against the simulator.
 */
export function createClient(url: string, headers: Record<string, string> = {}): Client {
  // urql sends queries as GET (cacheable by URL); the gateway's CSRF prevention wants a header a browser
  // cannot add without a preflight on such requests.
  return new Client({
    url,
    exchanges: [fetchExchange],
    requestPolicy: 'network-only',
    preferGetMethod: 'within-url-limit',
    fetchOptions: { headers: { 'x-graphql-yoga-csrf': '1', ...headers } },
  });
}

export interface AddressTransaction {
  hash: string;
  blockNumber: string;
  cursor: string;
}

/** Every transaction of an address, newest first, `pageSize` per request, following `endCursor` to the end. */
export async function allAddressTransactions(
  client: Client,
  chainId: string,
  address: string,
  pageSize = 50,
  limit = 10_000,
): Promise<AddressTransaction[]> {
  const out: AddressTransaction[] = [];
  let after: string | null = null;
  for (;;) {
    const vars: ExampleAddressTransactionsQueryVariables = {
      chainId,
      address,
      first: pageSize,
      after,
    };
    const res: OperationResult<ExampleAddressTransactionsQuery> = await client
      .query(ExampleAddressTransactionsDocument, vars)
      .toPromise();
    if (res.error) throw res.error;
    const list = res.data?.address?.transactions;
    if (!list) throw new Error(`no transactions list for ${address}`);
    for (const edge of list.edges)
      out.push({ hash: edge.node.hash, blockNumber: edge.node.blockNumber, cursor: edge.cursor });
    if (!list.pageInfo.hasNextPage || out.length >= limit) return out;
    after = list.pageInfo.endCursor ?? null;
  }
}

/** A block with the first page of its transactions. */
export async function blockWithTransactions(client: Client, chainId: string, id: string) {
  const res = await client.query(ExampleBlockWithTransactionsDocument, { chainId, id }).toPromise();
  if (res.error) throw res.error;
  return res.data?.block ?? null;
}

// Run directly: `npx tsx examples/client.ts <chainId> <address>`.
if (import.meta.url === `file://${process.argv[1]}`) {
  const [chainId = '43114', address] = process.argv.slice(2);
  if (!address) {
    console.error('usage: tsx examples/client.ts <chainId> <address>');
    process.exit(2);
  }
  const client = createClient(process.env.GATEWAY_URL ?? 'http://localhost:4000/graphql');
  const txs = await allAddressTransactions(
    client,
    chainId,
    address,
    50,
    Number(process.env.LIMIT ?? 200),
  );
  console.log(`${txs.length} transactions of ${address} on ${chainId}`);
  const newest = txs[0];
  if (newest) {
    const block = await blockWithTransactions(client, chainId, newest.blockNumber);
    console.log(`block ${block?.number} (${block?.timestampIso}): ${block?.txCount} transactions`);
    for (const edge of block?.transactions?.edges ?? [])
      console.log(
        `  ${edge.node.hash} ${edge.node.from.address} → ${edge.node.to?.address ?? '(create)'} ${edge.node.value}`,
      );
  }
}
