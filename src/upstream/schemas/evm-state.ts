import { z } from 'zod';
import { hexQuantity } from './node-common.js';

/**
 * Answers of the standard Ethereum JSON-RPC state methods (go-ethereum's shapes, which coreth,
 * Subnet-EVM and Hardhat all answer): quantities are 0x-hex, data is 0x-hex bytes.
 */
const hexData = z
  .string()
  .regex(/^0x([0-9a-fA-F]{2})*$/, 'expected 0x-hex bytes')
  .transform((h) => h.toLowerCase());
const hash32 = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, 'expected a 32-byte hash')
  .transform((h) => h.toLowerCase());
const address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, 'expected an address')
  .transform((h) => h.toLowerCase());

export const dataResult = hexData;
/** `eth_getStorageAt` answers a 32-byte word (some nodes trim leading zeros: pad it back). */
export const storageResult = z
  .string()
  .regex(/^0x[0-9a-fA-F]{0,64}$/, 'expected a storage word')
  .transform((h) => `0x${h.slice(2).toLowerCase().padStart(64, '0')}`);

/**
 * The header fields a state pin needs (eth_getBlockByNumber / eth_getBlockByHash with `false`), and what a
 * block built from the header shows while the Data API has not indexed it (gas, base fee, the count of
 * its transactions, whose hashes are not kept).
 */
export const headerResult = z
  .object({
    number: hexQuantity,
    hash: hash32,
    stateRoot: hash32,
    timestamp: hexQuantity,
    parentHash: hash32,
    gasUsed: hexQuantity.optional(),
    gasLimit: hexQuantity.optional(),
    baseFeePerGas: hexQuantity.optional(),
    transactions: z
      .array(z.unknown())
      .optional()
      .transform((t) => t?.length),
  })
  .nullable();
export type EvmHeader = NonNullable<z.output<typeof headerResult>>;

export const logResult = z.object({
  address,
  topics: z.array(hash32),
  data: hexData,
  blockNumber: hexQuantity,
  blockHash: hash32,
  transactionHash: hash32,
  transactionIndex: hexQuantity,
  logIndex: hexQuantity,
  removed: z.boolean().optional(),
});
export type EvmLog = z.output<typeof logResult>;
export const logsResult = z.array(logResult);

const storageProof = z.object({ key: z.string(), value: hexQuantity, proof: z.array(hexData) });
/** `eth_getProof` (EIP-1186). */
export const proofResult = z.object({
  address,
  balance: hexQuantity,
  nonce: hexQuantity,
  codeHash: hash32,
  storageHash: hash32,
  accountProof: z.array(hexData),
  storageProof: z.array(storageProof),
});
export type EvmProof = z.output<typeof proofResult>;

/** `eth_feeHistory`. */
export const feeHistoryResult = z.object({
  oldestBlock: hexQuantity,
  baseFeePerGas: z.array(hexQuantity),
  gasUsedRatio: z.array(z.number()),
  reward: z.array(z.array(hexQuantity)).optional(),
});
export type EvmFeeHistory = z.output<typeof feeHistoryResult>;
