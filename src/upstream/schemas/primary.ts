import { z } from 'zod';

/**
 * Contracts of the Data API's primary-network resources (validators, L1 validators, balances), from the
 * real OpenAPI spec (`data-api.openapi.json`). Where the real API answers a `oneOf`
 * (validators by `validationStatus`, balances by `chainInfo.chainName`) the schema is a union, so the
 * graph can type each member. Unknown fields are dropped; a missing required field fails the parse.
 */
export const decimal = z.string().regex(/^-?\d+(\.\d+)?$/, 'expected a decimal string');
/** Timestamps and counts the contract declares as `number`: whole numbers in practice. */
export const int = z.number().int();
/**
 * A uint64 / int64 on chain (an L1 validator's weight and balance): a JSON number up to 2^53, beyond it
 * the exact decimal string the lossless body parse keeps (upstream/json.ts). Carried on as a decimal string.
 */
export const uint64 = z
  .union([
    z.string().regex(/^(0|[1-9]\d*)$/, 'expected a decimal integer'),
    z
      .number()
      .int()
      .nonnegative()
      .refine(Number.isSafeInteger, 'integer beyond 2^53 cannot be exact'),
  ])
  .transform(String);
/**
 * A JSON `number` that the graph shows as a Float (percentages, coordinates, uptime): an integer literal
 * beyond 2^53, which the lossless body parse keeps as a decimal string, becomes the nearest float, as a
 * Float implies (the spec sets no maximum, and the varied simulator sends uint64 max there).
 */
export const float = z.union([
  z.number(),
  z
    .string()
    .regex(/^-?\d+$/, 'expected a number')
    .transform(Number),
]);
export const int64 = z
  .union([
    z.string().regex(/^-?(0|[1-9]\d*)$/, 'expected a decimal integer'),
    z.number().int().refine(Number.isSafeInteger, 'integer beyond 2^53 cannot be exact'),
  ])
  .transform(String);
const pageToken = z.string().optional();

export const networkName = z.enum(['mainnet', 'fuji', 'testnet']);
export type NetworkName = z.infer<typeof networkName>;
/** The two networks behind the three names: the gateway sends `fuji` for `testnet` too. */
export type GatewayNetwork = Exclude<NetworkName, 'testnet'>;

export const blsCredentials = z.object({ publicKey: z.string(), proofOfPossession: z.string() });
export type BlsCredentials = z.infer<typeof blsCredentials>;

export const rewards = z.object({
  validationRewardAmount: decimal,
  delegationRewardAmount: decimal,
  rewardAddresses: z.array(z.string()).optional(),
  rewardTxHash: z.string().optional(),
});
export type Rewards = z.infer<typeof rewards>;

/** Fields every validation period carries, whatever its status. */
const validatorBase = {
  txHash: z.string(),
  nodeId: z.string(),
  subnetId: z.string(),
  amountStaked: decimal,
  delegationFee: decimal.optional(),
  startTimestamp: int,
  endTimestamp: int,
  blsCredentials: blsCredentials.optional(),
};

export const completedValidator = z.object({
  ...validatorBase,
  delegatorCount: int,
  amountDelegated: decimal.optional(),
  rewards,
  validationStatus: z.literal('completed'),
});

export const validatorHealth = z.object({
  reachabilityPercent: float,
  benchedPChainRequestsPercent: float,
  benchedXChainRequestsPercent: float,
  benchedCChainRequestsPercent: float,
});

export const geolocation = z.object({
  city: z.string(),
  country: z.string(),
  countryCode: z.string(),
  latitude: float,
  longitude: float,
});

export const activeValidator = z.object({
  ...validatorBase,
  stakePercentage: float,
  delegatorCount: int,
  amountDelegated: decimal.optional(),
  uptimePerformance: float,
  avalancheGoVersion: z.string().optional(),
  delegationCapacity: decimal.optional(),
  potentialRewards: rewards,
  validationStatus: z.literal('active'),
  validatorHealth,
  // Required and nullable in the spec ("if available").
  geolocation: geolocation.nullable().optional(),
});

export const pendingValidator = z.object({
  ...validatorBase,
  validationStatus: z.literal('pending'),
});

export const removedValidator = z.object({
  ...validatorBase,
  removeTxHash: z.string(),
  removeTimestamp: int,
  validationStatus: z.literal('removed'),
});

export const validatorDetails = z.discriminatedUnion('validationStatus', [
  completedValidator,
  activeValidator,
  pendingValidator,
  removedValidator,
]);
export type ValidatorDetails = z.infer<typeof validatorDetails>;
export type ValidationStatus = ValidatorDetails['validationStatus'];

export const listValidatorDetailsResponse = z.object({
  validators: z.array(validatorDetails),
  nextPageToken: pageToken,
});

/** A validation period as the graph carries it: the upstream record plus the network it was read on. */
export type Validator = ValidatorDetails & { network: GatewayNetwork };

/** An owner set (L1 validator balance and deactivation owners). */
export const balanceOwner = z.object({ addresses: z.array(z.string()), threshold: int });

/**
 * The spec leaves an L1 validator's `blsCredentials` an untyped object; in practice it holds the
 * same public key and proof of possession as a primary-network validator. Both are optional here.
 */
export const l1BlsCredentials = z.object({
  publicKey: z.string().optional(),
  proofOfPossession: z.string().optional(),
});

export const l1Validator = z.object({
  validationId: z.string(),
  validationIdHex: z.string(),
  nodeId: z.string(),
  subnetId: z.string(),
  weight: uint64,
  remainingBalance: uint64,
  creationTimestamp: int,
  blsCredentials: l1BlsCredentials,
  remainingBalanceOwner: balanceOwner,
  deactivationOwner: balanceOwner,
});
export type L1ValidatorRaw = z.infer<typeof l1Validator>;
/** An L1 validator as the graph carries it: with the network it was read on. */
export type L1Validator = L1ValidatorRaw & { network: GatewayNetwork };

export const listL1ValidatorsResponse = z.object({
  validators: z.array(l1Validator),
  blockHeight: decimal,
  nextPageToken: pageToken,
});

// ——— Balances (one answer shape per chain kind; told apart by chainInfo.chainName) ———

export const primaryChainInfo = z.object({
  chainName: z.enum(['p-chain', 'x-chain', 'c-chain']),
  network: networkName,
});
export type PrimaryChainInfo = z.infer<typeof primaryChainInfo>;

export const assetAmount = z.object({
  assetId: z.string(),
  name: z.string(),
  symbol: z.string(),
  denomination: int,
  type: z.enum(['secp256k1', 'nft']),
  amount: decimal,
});
export type AssetAmount = z.infer<typeof assetAmount>;

export const aggregatedAssetAmount = assetAmount.extend({ utxoCount: int });
export type AggregatedAssetAmount = z.infer<typeof aggregatedAssetAmount>;
/** Atomic (shared) memory: X-Chain and C-Chain entries name the chain shared with; P-Chain entries add a status. */
export const sharedAssetBalance = aggregatedAssetAmount.extend({
  sharedWithChainId: z.string(),
  status: z.string().optional(),
});
export type SharedAssetBalance = z.infer<typeof sharedAssetBalance>;

export const pChainBalances = z.object({
  chainInfo: primaryChainInfo.extend({ chainName: z.literal('p-chain') }),
  balances: z.object({
    unlockedUnstaked: z.array(aggregatedAssetAmount),
    unlockedStaked: z.array(aggregatedAssetAmount),
    lockedPlatform: z.array(aggregatedAssetAmount),
    lockedStakeable: z.array(aggregatedAssetAmount),
    lockedStaked: z.array(aggregatedAssetAmount),
    pendingStaked: z.array(aggregatedAssetAmount),
    atomicMemoryUnlocked: z.array(sharedAssetBalance),
    atomicMemoryLocked: z.array(sharedAssetBalance),
  }),
});

export const xChainBalances = z.object({
  chainInfo: primaryChainInfo.extend({ chainName: z.literal('x-chain') }),
  balances: z.object({
    locked: z.array(aggregatedAssetAmount),
    unlocked: z.array(aggregatedAssetAmount),
    atomicMemoryUnlocked: z.array(sharedAssetBalance),
    atomicMemoryLocked: z.array(sharedAssetBalance),
  }),
});

export const cChainAtomicBalances = z.object({
  chainInfo: primaryChainInfo.extend({ chainName: z.literal('c-chain') }),
  balances: z.object({
    atomicMemoryUnlocked: z.array(sharedAssetBalance),
    atomicMemoryLocked: z.array(sharedAssetBalance),
  }),
});

/** The real answer is a oneOf without a discriminator property; `chainInfo.chainName` tells them apart. */
export const primaryBalancesResponse = z.union([
  pChainBalances,
  xChainBalances,
  cChainAtomicBalances,
]);
export type PChainBalances = z.infer<typeof pChainBalances>;
export type XChainBalances = z.infer<typeof xChainBalances>;
export type CChainAtomicBalances = z.infer<typeof cChainAtomicBalances>;
export type PrimaryBalances = z.infer<typeof primaryBalancesResponse>;

// ——— Signature aggregation (POST and GET both answer 201) ———

export const signatureAggregationResponse = z.object({
  signedMessage: z.string().regex(/^(0x)?[0-9a-fA-F]*$/, 'expected hex'),
});
export type SignatureAggregation = z.infer<typeof signatureAggregationResponse>;
