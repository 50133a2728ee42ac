/**
 * The example tabs GraphiQL opens with (when the browser has no saved tabs of its own). Each is a complete
 * operation whose variables have defaults (so a tab runs as it opens, whatever the browser keeps of its
 * variables editor), shown again in the variables editor to edit. A test runs every one against the simulator.
 */
export interface ExampleTab {
  query: string;
  variables?: Record<string, unknown>;
}

const WAVAX = '0xB31f66AA3C1e785363F0875A1B74E27b85FD66c7';

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
query AddressHistory($chainId: String! = "43114", $address: String! = "${WAVAX}") {
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
    variables: { chainId: '43114', address: WAVAX },
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
query IcmMessages($address: String! = "${WAVAX}") {
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
    variables: { address: WAVAX },
  },
  {
    query: /* GraphQL */ `# Live: what an address sends and receives (native, ERC-20/721/1155) as its blocks land.
# A subscription: GraphiQL runs it over graphql-ws; the chain must be one the gateway follows (LIVE_WS).
# Add \`from: "<block>"\` to replay the events after a block first.
subscription AddressActivity($chainId: String! = "43114", $addresses: [String!]! = ["${WAVAX}"]) {
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
    variables: { chainId: '43114', addresses: [WAVAX] },
  },
];
