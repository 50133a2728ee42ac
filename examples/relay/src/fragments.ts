/**
 * Relay fragments over the gateway's schema, checked by `relay-compiler --validate` in the test suite: a
 * paginated, refetchable connection on an address (usePaginationFragment), a block refetched through
 * `Node` (useRefetchableFragment) with its transactions, and a chain's latest blocks. The compiler proves
 * the schema follows what Relay needs (Node + node(id), connections with edges/cursor/pageInfo).
 * `graphql` here is a stand-in tag: relay-compiler reads the templates; a Relay app imports it from react-relay.
 */
const graphql = (strings: TemplateStringsArray): string => strings.join('');

export const AddressTransactions = graphql`
  fragment fragments_AddressTransactions on Address
  @refetchable(queryName: "AddressTransactionsPaginationQuery")
  @argumentDefinitions(count: { type: "Int", defaultValue: 20 }, cursor: { type: "String" }) {
    address
    transactions(first: $count, after: $cursor) @connection(key: "fragments_AddressTransactions_transactions") {
      edges {
        node { id hash blockNumber value from { address } to { address } }
      }
    }
  }
`;

export const BlockWithTransactions = graphql`
  fragment fragments_Block on Block @refetchable(queryName: "BlockRefetchQuery") {
    number
    hash
    timestamp
    transactions(first: 10) {
      edges { node { id hash } }
      pageInfo { hasNextPage endCursor }
    }
  }
`;

export const ChainLatestBlocks = graphql`
  query fragmentsChainLatestBlocksQuery($chainId: String!) {
    chain(id: $chainId) {
      name
      blocks(first: 5) {
        edges { cursor node { id ...fragments_Block } }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`;

export const AddressPage = graphql`
  query fragmentsAddressPageQuery($chainId: String!, $address: String!) {
    address(chainId: $chainId, address: $address) { ...fragments_AddressTransactions }
  }
`;
