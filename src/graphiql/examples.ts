/**
 * The example tabs GraphiQL opens with (when the browser has no saved tabs of its own). Each is a complete
 * operation whose variables have defaults (so a tab runs as it opens, whatever the browser keeps of its
 * variables editor), shown again in the variables editor to edit. test/e2e/graphiql.test.ts runs every one
 * in Chromium on `npm run dev`'s wiring and sees data in each.
 */
export interface ExampleTab {
  query: string;
  variables?: Record<string, unknown>;
}

/**
 * An address with data where GraphiQL is first tried, `npm run dev`'s simulator (seed `avalanche`): one of
 * its busy addresses (thousands of transactions, the most ICM messages, in most new blocks); its
 * `fixtures.icmAddress`. On a real network, put an address of your own in the variables.
 */
export const EXAMPLE_ADDRESS = '0xfF759363a93Fb37936568c5d6d13DF11d869512A';

export const EXAMPLE_TABS: readonly ExampleTab[] = [
  {
    query: /* GraphQL */ `# The latest blocks of the C-Chain, each with its first transactions.
query LatestBlocks($chainId: String! = "43114") {
  chain(id: $chainId) {
    name
    blocks(first: 5) {
      edges {
        node {
          number
          hash
          timestampIso
          txCount
          transactions(first: 3) {
            edges { node { hash from { address } to { address } value } }
          }
        }
      }
      pageInfo { hasNextPage endCursor }
    }
  }
}
`,
    variables: { chainId: '43114' },
  },
  {
    query: /* GraphQL */ `# An address: its native balance and its latest transactions, each with its block.
query AddressHistory($chainId: String! = "43114", $address: String! = "${EXAMPLE_ADDRESS}") {
  address(chainId: $chainId, address: $address) {
    address
    name
    balance { balance decimals symbol balanceValue { currencyCode value } }
    transactions(first: 10) {
      edges { node { hash blockTimestampIso value block { number } } }
      pageInfo { hasNextPage endCursor }
    }
  }
}
`,
    variables: { chainId: '43114', address: EXAMPLE_ADDRESS },
  },
  {
    query: /* GraphQL */ `# The network node this gateway reads, and its own validation periods on the primary network.
query NodeValidations {
  networkNode {
    name
    nodeId
    networkName
    version { version }
    validators(first: 5) {
      edges { node { __typename nodeId } }
    }
  }
}
`,
  },
  {
    query: /* GraphQL */ `# The network node: what it runs, whether it is bootstrapped, its peers.
query NetworkNode {
  networkNode {
    name
    nodeId
    networkName
    version { version }
    upgrades { __typename }
    peers(first: 5) { edges { node { nodeId ip } } }
  }
}
`,
  },
  {
    query: /* GraphQL */ `# Interchain (ICM) messages an address sent or received, with their chains.
query IcmMessages($address: String! = "${EXAMPLE_ADDRESS}") {
  icmMessages(address: $address, first: 5) {
    edges {
      node {
        __typename
        messageId
        status
        sourceChain { chainId name }
        destinationChain { chainId name }
      }
    }
    pageInfo { hasNextPage endCursor }
  }
}
`,
    variables: { address: EXAMPLE_ADDRESS },
  },
  {
    query: /* GraphQL */ `# Live: what an address sends and receives (native, ERC-20/721/1155) as its blocks land.
# A subscription: GraphiQL runs it over graphql-ws on /graphql (the headers editor does not reach it); the
# chain must be one the gateway follows (LIVE_WS). Under \`npm run dev\` the simulator makes a block every
# 2 s (SIM_BLOCK_INTERVAL_MS), and this address is in most of them. Stop it with the stop button.
# Add \`from: "<block>"\` to replay the events after a block first.
subscription AddressActivity($chainId: String! = "43114", $addresses: [String!]! = ["${EXAMPLE_ADDRESS}"]) {
  addressActivity(chainId: $chainId, addresses: $addresses) {
    head
    blockNumber
    transactionHash
    from { address }
    to { address }
    value
    transfers { kind from { address } to { address } value tokenId token { address } }
  }
}
`,
    variables: { chainId: '43114', addresses: [EXAMPLE_ADDRESS] },
  },
];
