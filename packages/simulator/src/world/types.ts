/**
 * Record types of the simulated world. Amounts and fees are bigints (wei / nAVAX), gas and
 * counts are numbers, timestamps are Unix seconds. Addresses are EIP-55 checksummed as stored;
 * every lookup is case-insensitive. The upstream handlers shape these into each API's own format.
 */

export type NetworkName = 'mainnet' | 'fuji';
export type ErcType = 'ERC-20' | 'ERC-721' | 'ERC-1155' | 'UNKNOWN';

/** One primary network (mainnet or fuji) and its fixed ids. */
export interface PrimaryNetworkInfo {
  name: NetworkName;
  /** 1 (mainnet) or 5 (fuji). */
  networkId: number;
  /** bech32 human-readable part of its addresses: `avax` or `fuji`. */
  hrp: 'avax' | 'fuji';
  pChainId: string;
  xChainId: string;
  cChainId: string;
  /** EVM chain id of its C-Chain: '43114' or '43113'. */
  cChainEvmId: string;
  avaxAssetId: string;
  /** The primary network's subnet id (also the P-Chain id). */
  primarySubnetId: string;
}

export interface NetworkTokenInfo {
  name: string;
  symbol: string;
  decimals: number;
  logoUri: string;
  description: string;
}

/** An EVM chain the Data API indexes. */
export interface EvmChainInfo {
  /** Decimal EVM chain id, e.g. '43114'. */
  chainId: string;
  /** CB58 blockchain id. */
  blockchainId: string;
  subnetId: string;
  network: NetworkName;
  isTestnet: boolean;
  /** True for an L1 (not a primary-network C-Chain). */
  isL1: boolean;
  chainName: string;
  description: string;
  vmId: string;
  rpcUrl: string;
  wsUrl: string;
  explorerUrl: string;
  chainLogoUri: string;
  networkToken: NetworkTokenInfo;
  enabledFeatures: ('nftIndexing' | 'webhooks' | 'teleporter')[];
  /** Number of the first block the world holds (earlier numbers are "not indexed": 404). */
  firstBlock: number;
}

export interface EvmBlock {
  chainId: string;
  number: number;
  hash: string;
  parentHash: string;
  timestamp: number;
  timestampMs: number;
  baseFee: bigint;
  gasUsed: number;
  gasLimit: number;
  /** Avalanche block gas cost (usually 0 after Etna). */
  gasCost: bigint;
  feesSpent: bigint;
  /** Transactions on this chain up to and including this block. */
  cumulativeTransactions: number;
  txCount: number;
  /** Position of this block's first transaction in `EvmChainData.transactions`. */
  firstTxSeq: number;
  miner: string;
  stateRoot: string;
  transactionsRoot: string;
  receiptsRoot: string;
  size: number;
}

export type CallType = 'NATIVE_TRANSFER' | 'CONTRACT_CALL' | 'CONTRACT_CREATION';
export type InternalTxType = 'CALL' | 'CREATE' | 'CREATE2' | 'DELEGATECALL' | 'STATICCALL';

export interface TokenTransfer {
  kind: 'erc20' | 'erc721' | 'erc1155';
  /** The token contract (checksummed). */
  token: string;
  from: string;
  to: string;
  /** Amount (ERC-20, ERC-1155); 1 for ERC-721. */
  value: bigint;
  /** ERC-721 / ERC-1155 token id (decimal string). */
  tokenId?: string;
  logIndex: number;
}

export interface InternalTx {
  from: string;
  to: string;
  type: InternalTxType;
  value: bigint;
  isReverted: boolean;
  gasUsed: number;
  gasLimit: number;
}

export interface EvmTx {
  chainId: string;
  /** Position in `EvmChainData.transactions` (ascending by block, then index). */
  seq: number;
  hash: string;
  blockNumber: number;
  blockHash: string;
  blockIndex: number;
  timestamp: number;
  from: string;
  /** Recipient; for a contract creation, the created contract. */
  to: string;
  value: bigint;
  nonce: number;
  gasLimit: number;
  gasUsed: number;
  /** Effective gas price. */
  gasPrice: bigint;
  baseFeePerGas: bigint;
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
  /** 0 legacy, 2 EIP-1559. */
  txType: 0 | 2;
  /** 1 success, 0 failed (reverted: no transfers, no internals). */
  status: 0 | 1;
  input: string;
  method: { callType: CallType; methodHash: string; methodName?: string };
  erc20: TokenTransfer[];
  erc721: TokenTransfer[];
  erc1155: TokenTransfer[];
  internals: InternalTx[];
  /** Set on contract creations. */
  createdContract?: string;
  /** Set when this tx sent (SOURCE) or delivered (DESTINATION) an ICM message. */
  icm?: {
    messageId: string;
    direction: 'SOURCE_TRANSACTION' | 'DESTINATION_TRANSACTION';
    sourceChainId: string;
    destinationChainId: string;
  };
}

/** Position of one transfer or internal tx: transaction seq + index within its array. */
export interface ItemRef {
  seq: number;
  index: number;
}

/** What an address did on one chain, every list ascending (oldest first). */
export interface AddressActivity {
  /** Every tx the address touched: as sender/recipient, or in any transfer or internal tx. */
  txs: number[];
  /** Txs where it is the tx `from` or `to`. */
  native: number[];
  erc20: ItemRef[];
  erc721: ItemRef[];
  erc1155: ItemRef[];
  /** Internal txs it is in, limited to the ones the Data API lists (valued CALLs, CREATEs). */
  internals: ItemRef[];
}

export interface ContractInfo {
  address: string;
  ercType: ErcType;
  name: string;
  symbol?: string;
  decimals?: number;
  description: string;
  logoUri: string;
  officialSite?: string;
  color?: string;
  tags: string[];
  /** Unit price in USD for ERC-20 tokens that have one. */
  priceUsd?: number;
  coingeckoCoinId?: string;
  deployment: { txHash: string; deployerAddress: string };
}

/** One EVM chain's data: blocks, transactions and their indexes. */
export interface EvmChainData {
  info: EvmChainInfo;
  /** What new blocks do that a reader of blocks cannot see (the simulator's `disagree` option). */
  readonly disagree: { invisiblePayouts: boolean; silentToken: boolean };
  /** Every block, ascending by number, contiguous from `info.firstBlock`. */
  blocks: EvmBlock[];
  /** Every transaction, ascending by (block, index); `transactions[i].seq === i`. */
  transactions: EvmTx[];
  /** Contracts on this chain by lower-case address (the shared ones plus ones created here). */
  contracts: Map<string, ContractInfo>;
  head(): EvmBlock;
  /** By number or 0x hash; undefined when not in the world. */
  block(id: number | string): EvmBlock | undefined;
  tx(hash: string): EvmTx | undefined;
  /** A block's transactions in block order. */
  blockTxs(block: EvmBlock): EvmTx[];
  /** An address's activity (undefined: never seen on this chain). */
  activity(address: string): AddressActivity | undefined;
  contract(address: string): ContractInfo | undefined;
  /** Native balance (wei) after block `atBlock` (default head): genesis allocation plus every flow. */
  nativeBalance(address: string, atBlock?: number): bigint;
  /**
   * ERC-20 balances (lower-case token → base units, positive ones only) after block `atBlock` (default
   * head): what both the Data API and the node's `balanceOf` answer.
   */
  erc20Balances(address: string, atBlock?: number): Map<string, bigint>;
  /** Next nonce of an address after block `atBlock` (default head). */
  nonce(address: string, atBlock?: number): number;
}
