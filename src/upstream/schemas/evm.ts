import { z } from 'zod';
import { CURRENCY_CODES as SPEC_CURRENCY_CODES } from '../../spec/data-api.js';

/**
 * Contracts of the Data API's EVM resources (from the real OpenAPI spec, `data-api.openapi.json`).
 * Unknown fields are dropped (the schema exposes what the contract names); a missing required field
 * or a wrong type fails the parse, which the gateway reports as UPSTREAM_ERROR for that field.
 */
export const decimal = z.string().regex(/^-?\d+(\.\d+)?$/, 'expected a decimal string');

export const richAddress = z.object({
  address: z.string(),
  name: z.string().optional(),
  symbol: z.string().optional(),
  decimals: z.number().int().optional(),
  logoUri: z.string().optional(),
});
export type RichAddress = z.infer<typeof richAddress>;

export const transactionMethod = z.object({
  callType: z.enum(['NATIVE_TRANSFER', 'CONTRACT_CALL', 'CONTRACT_CREATION']),
  methodHash: z.string(),
  methodName: z.string().optional(),
});

export const nativeTransaction = z.object({
  blockNumber: decimal,
  blockTimestamp: z.number().int(),
  blockTimestampMilliseconds: z.number().int().optional(),
  blockHash: z.string(),
  chainId: z.string(),
  blockIndex: z.number().int(),
  txHash: z.string(),
  txStatus: z.string(),
  txType: z.number().int(),
  gasLimit: decimal,
  gasUsed: decimal,
  gasPrice: decimal,
  nonce: decimal,
  from: richAddress,
  to: richAddress,
  method: transactionMethod.optional(),
  value: decimal,
});
export type NativeTransaction = z.infer<typeof nativeTransaction>;

export const evmBlock = z.object({
  // The real latest-blocks answer has been seen without chainId (in the published examples):
  // tolerate it; the client fills it from the request.
  chainId: z.string().optional(),
  blockNumber: decimal,
  blockTimestamp: z.number().int(),
  blockTimestampMilliseconds: z.number().int().optional(),
  blockHash: z.string(),
  txCount: z.number().int(),
  baseFee: decimal,
  gasUsed: decimal,
  gasLimit: decimal,
  gasCost: decimal,
  parentHash: z.string(),
  feesSpent: decimal,
  cumulativeTransactions: decimal,
});
export type EvmBlockRaw = z.infer<typeof evmBlock>;
export type EvmBlock = EvmBlockRaw & { chainId: string };

export const networkToken = z.object({
  name: z.string(),
  symbol: z.string(),
  decimals: z.number().int(),
  logoUri: z.string().optional(),
  description: z.string().optional(),
});

export const chainInfo = z.object({
  chainId: z.string(),
  status: z.string(),
  chainName: z.string(),
  description: z.string(),
  platformChainId: z.string().optional(),
  subnetId: z.string().optional(),
  vmId: z.string().optional(),
  vmName: z.string(),
  explorerUrl: z.string().optional(),
  rpcUrl: z.string(),
  wsUrl: z.string().optional(),
  isTestnet: z.boolean(),
  utilityAddresses: z.object({ multicall: z.string().optional() }).optional(),
  networkToken,
  chainLogoUri: z.string().optional(),
  private: z.boolean().optional(),
  enabledFeatures: z.array(z.string()).optional(),
});
export type ChainInfo = z.infer<typeof chainInfo>;

export const listChainsResponse = z.object({ chains: z.array(chainInfo) });

const pageToken = z.string().optional();
export const listEvmBlocksResponse = z.object({
  blocks: z.array(evmBlock),
  nextPageToken: pageToken,
});
export const listNativeTransactionsResponse = z.object({
  transactions: z.array(nativeTransaction),
  nextPageToken: pageToken,
});

export { CURRENCY_CODES, type CurrencyCode } from '../../spec/data-api.js';

/** A JS number as a plain decimal string (never exponent notation), so it fits the BigDecimal scalar. */
export function numberToDecimal(n: number): string {
  if (Number.isSafeInteger(n)) return String(n);
  return n.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });
}

/**
 * A fiat amount. The real contract declares `value` a number; the seed spec says a string. Both are
 * accepted and carried on as a decimal string.
 */
export const money = z.object({
  currencyCode: z.enum(SPEC_CURRENCY_CODES),
  value: z
    .union([z.number().finite(), decimal])
    .transform((v) => (typeof v === 'number' ? numberToDecimal(v) : v)),
});
export type Money = z.infer<typeof money>;
