import { bytesFromLabel, cb58 } from './encoding.js';
import type { EvmChainInfo, NetworkName, NetworkTokenInfo, PrimaryNetworkInfo } from './types.js';

/** Fixed ids of the real networks and the simulated L1. Independent of the seed. */

export const P_CHAIN_ID = '11111111111111111111111111111111LpoYY';
/** Unix seconds of the C-Chain head when the world is created (world time, not wall time). */
export const WORLD_HEAD_TIME = 1_763_600_000;
/** The simulated node itself: a primary-network validator in every seed. */
export const SELF_NODE_ID = 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg';
/** The TeleporterMessenger contract (same address on every chain). */
export const TELEPORTER_ADDRESS = '0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf';
/** Avalanche C-Chain blocks report this coinbase. */
export const BLACKHOLE_COINBASE = '0x0100000000000000000000000000000000000000';
export const EVM_VM_ID = 'mgj786NP7uDwBCcq6YwThhaN8FLyybkCa4zBWTQbNgmK6k9A6';
export const SUBNET_EVM_VM_ID = 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy';

const AVAX_LOGO =
  'https://images.ctfassets.net/gcj8jwzm6086/5VHupNKwnDYJvqMENeV7iJ/fdd6326b7a82c8388e4ee9d4be7062d4/avalanche-avax-logo.svg';

export const NETWORKS: Record<NetworkName, PrimaryNetworkInfo> = {
  mainnet: {
    name: 'mainnet',
    networkId: 1,
    hrp: 'avax',
    pChainId: P_CHAIN_ID,
    xChainId: '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM',
    cChainId: '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5',
    cChainEvmId: '43114',
    avaxAssetId: 'FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z',
    primarySubnetId: P_CHAIN_ID,
  },
  fuji: {
    name: 'fuji',
    networkId: 5,
    hrp: 'fuji',
    pChainId: P_CHAIN_ID,
    xChainId: '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm',
    cChainId: 'yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp',
    cChainEvmId: '43113',
    avaxAssetId: 'U8iRqJoiJm8xZHAacmvYyZVwqQx6uDNtQeP3CQ6fcgQk3JqnK',
    primarySubnetId: P_CHAIN_ID,
  },
};

const avax = (description: string): NetworkTokenInfo => ({
  name: 'Avalanche',
  symbol: 'AVAX',
  decimals: 18,
  logoUri: AVAX_LOGO,
  description,
});

/** The simulated L1's ids (valid CB58, derived from fixed labels). */
export const SIM_L1 = {
  chainId: '779672',
  blockchainId: cb58(bytesFromLabel('sim-l1-blockchain')),
  subnetId: cb58(bytesFromLabel('sim-l1-subnet')),
  name: 'Simulated L1',
};
/** A chain the Data API does not index: ICM messages from it are `delivered_source_not_indexed`. */
export const UNINDEXED_L1 = {
  chainId: '889134',
  blockchainId: cb58(bytesFromLabel('sim-unindexed-l1-blockchain')),
  subnetId: cb58(bytesFromLabel('sim-unindexed-l1-subnet')),
  name: 'Unindexed L1',
};

/** Size of each chain's generated history. */
export interface ChainShape {
  blocks: number;
  txPerBlock: [number, number];
  /** Share of txs where one side is a busy address. */
  busyShare: number;
  /** Transactions on the chain before the first generated block. */
  priorTransactions: number;
}

export const CHAIN_SPECS: { info: EvmChainInfo; shape: ChainShape }[] = [
  {
    info: {
      chainId: '43114',
      blockchainId: NETWORKS.mainnet.cChainId,
      subnetId: P_CHAIN_ID,
      network: 'mainnet',
      isTestnet: false,
      isL1: false,
      chainName: 'Avalanche (C-Chain)',
      description:
        "The Contract Chain on Avalanche's primary network supports EVM smart contracts.",
      vmId: EVM_VM_ID,
      rpcUrl: 'https://api.avax.network/ext/bc/C/rpc',
      wsUrl: 'wss://api.avax.network/ext/bc/C/ws',
      explorerUrl: 'https://subnets.avax.network/c-chain',
      chainLogoUri: AVAX_LOGO,
      networkToken: avax('AVAX is the native utility token of Avalanche.'),
      enabledFeatures: ['nftIndexing', 'webhooks', 'teleporter'],
      firstBlock: 70_000_000,
    },
    shape: { blocks: 480, txPerBlock: [0, 44], busyShare: 0.36, priorTransactions: 640_000_000 },
  },
  {
    info: {
      chainId: '43113',
      blockchainId: NETWORKS.fuji.cChainId,
      subnetId: P_CHAIN_ID,
      network: 'fuji',
      isTestnet: true,
      isL1: false,
      chainName: 'Avalanche Fuji (C-Chain)',
      description: "The Contract Chain on Avalanche's test network.",
      vmId: EVM_VM_ID,
      rpcUrl: 'https://api.avax-test.network/ext/bc/C/rpc',
      wsUrl: 'wss://api.avax-test.network/ext/bc/C/ws',
      explorerUrl: 'https://subnets-test.avax.network/c-chain',
      chainLogoUri: AVAX_LOGO,
      networkToken: avax('Test AVAX on the Fuji network.'),
      enabledFeatures: ['nftIndexing', 'webhooks', 'teleporter'],
      firstBlock: 48_000_000,
    },
    shape: { blocks: 240, txPerBlock: [0, 20], busyShare: 0.3, priorTransactions: 52_000_000 },
  },
  {
    info: {
      chainId: SIM_L1.chainId,
      blockchainId: SIM_L1.blockchainId,
      subnetId: SIM_L1.subnetId,
      network: 'mainnet',
      isTestnet: false,
      isL1: true,
      chainName: SIM_L1.name,
      description: 'A simulated Avalanche L1 running Subnet-EVM.',
      vmId: SUBNET_EVM_VM_ID,
      rpcUrl: `https://api.avax.network/ext/bc/${SIM_L1.blockchainId}/rpc`,
      wsUrl: `wss://api.avax.network/ext/bc/${SIM_L1.blockchainId}/ws`,
      explorerUrl: 'https://subnets.avax.network/sim-l1',
      chainLogoUri: AVAX_LOGO,
      networkToken: {
        name: 'Sim Token',
        symbol: 'SIMX',
        decimals: 18,
        logoUri: AVAX_LOGO,
        description: 'Native token of the simulated L1.',
      },
      enabledFeatures: ['teleporter'],
      firstBlock: 1_200_000,
    },
    shape: { blocks: 160, txPerBlock: [0, 14], busyShare: 0.3, priorTransactions: 3_000_000 },
  },
];
