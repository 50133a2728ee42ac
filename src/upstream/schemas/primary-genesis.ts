import { z } from 'zod';

/**
 * The genesis of an EVM chain created by a CreateChainTx (`BlockchainInfo.genesisData`), as the real
 * spec types it (`EvmGenesisDto`). Every field is optional there; numbers of the block header are hex
 * strings, the config's fork blocks and fee settings are JSON numbers. Chains of other VMs get a string.
 */
const num = z.number();
const optNum = num.nullable().optional();
const optStr = z.string().nullable().optional();

export const allowListConfig = z.object({
  blockTimestamp: optNum,
  adminAddresses: z.array(z.string()).optional(),
  managerAddresses: z.array(z.string()).optional(),
  enabledAddresses: z.array(z.string()).optional(),
});
export type AllowListConfig = z.infer<typeof allowListConfig>;

export const genesisFeeConfig = z.object({
  baseFeeChangeDenominator: optNum,
  blockGasCostStep: optNum,
  gasLimit: optNum,
  maxBlockGasCost: optNum,
  minBaseFee: optNum,
  minBlockGasCost: optNum,
  targetBlockRate: optNum,
  targetGas: optNum,
});
export type GenesisFeeConfig = z.infer<typeof genesisFeeConfig>;

export const genesisWarpConfig = z.object({
  blockTimestamp: optNum,
  quorumNumerator: optNum,
  requirePrimaryNetworkSigners: z.boolean().nullable().optional(),
});
export type GenesisWarpConfig = z.infer<typeof genesisWarpConfig>;

export const genesisConfig = z.object({
  berlinBlock: optNum,
  byzantiumBlock: optNum,
  chainId: optNum,
  constantinopleBlock: optNum,
  eip150Block: optNum,
  eip150Hash: optStr,
  eip155Block: optNum,
  eip158Block: optNum,
  feeConfig: genesisFeeConfig.nullable().optional(),
  homesteadBlock: optNum,
  istanbulBlock: optNum,
  londonBlock: optNum,
  muirGlacierBlock: optNum,
  petersburgBlock: optNum,
  subnetEVMTimestamp: optNum,
  allowFeeRecipients: z.boolean().nullable().optional(),
  warpConfig: genesisWarpConfig.nullable().optional(),
  txAllowListConfig: allowListConfig.nullable().optional(),
  contractDeployerAllowListConfig: allowListConfig.nullable().optional(),
  contractNativeMinterConfig: allowListConfig.nullable().optional(),
  feeManagerConfig: allowListConfig.nullable().optional(),
  rewardManagerConfig: allowListConfig.nullable().optional(),
});
export type GenesisConfig = z.infer<typeof genesisConfig>;

export const genesisAlloc = z.object({
  balance: optStr,
  code: optStr,
  storage: z.record(z.string(), z.string()).nullable().optional(),
});
export type GenesisAlloc = z.infer<typeof genesisAlloc>;

export const evmGenesis = z.object({
  airdropAmount: optNum,
  airdropHash: optStr,
  alloc: z.record(z.string(), genesisAlloc).nullable().optional(),
  baseFeePerGas: optNum,
  blobGasUsed: optStr,
  coinbase: optStr,
  config: genesisConfig.nullable().optional(),
  difficulty: optStr,
  excessBlobGas: optStr,
  extraData: optStr,
  gasLimit: optStr,
  gasUsed: optStr,
  mixHash: optStr,
  nonce: optStr,
  number: optStr,
  parentHash: optStr,
  timestamp: optStr,
});
export type EvmGenesis = z.infer<typeof evmGenesis>;

/** EVM chains get the parsed genesis; other VMs the raw genesis string. */
export const genesisData = z.union([evmGenesis, z.string()]);
export type GenesisData = z.infer<typeof genesisData>;
