import { badInput } from '../errors.js';
import { isEvmChainId } from './chain-id.js';

/**
 * Checks on client input, made before any upstream call. Each failure is BAD_USER_INPUT naming the argument.
 */
/** CB58 blockchain ids (base58, ~49-50 characters), which the Data API accepts in place of an EVM chain id. */
const BLOCKCHAIN_ID = /^[1-9A-HJ-NP-Za-km-z]{40,60}$/;
const BLOCK_NUMBER = /^(0|[1-9]\d{0,19})$/;
const HASH_32 = /^0x[0-9a-fA-F]{64}$/;
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** Chain ids and block numbers are unsigned 64-bit upstream: a larger number never reaches it. */
const UINT64_MAX = 2n ** 64n - 1n;
const fitsUint64 = (decimal: string) => BigInt(decimal) <= UINT64_MAX;

export function parseChainId(value: string, argument = 'chainId'): string {
  const v = value.trim();
  if ((isEvmChainId(v) && fitsUint64(v)) || BLOCKCHAIN_ID.test(v)) return v;
  throw badInput(
    argument,
    `${argument} must be a decimal EVM chain id (e.g. "43114", at most 2^64-1) or a blockchain id`,
  );
}

/** A block number (decimal) or a block hash (0x + 64 hex, normalized to lower case). */
export function parseBlockId(value: string, argument = 'id'): string {
  const v = value.trim();
  if (BLOCK_NUMBER.test(v) && fitsUint64(v)) return v;
  if (HASH_32.test(v)) return v.toLowerCase();
  throw badInput(
    argument,
    `${argument} must be a block number (decimal, at most 2^64-1) or a block hash (0x followed by 64 hex digits)`,
  );
}

export function parseTxHash(value: string, argument = 'hash'): string {
  const v = value.trim();
  if (HASH_32.test(v)) return v.toLowerCase();
  throw badInput(argument, `${argument} must be a transaction hash: 0x followed by 64 hex digits`);
}

export function parseEvmAddress(value: string, argument = 'address'): string {
  const v = value.trim();
  if (EVM_ADDRESS.test(v)) return v.toLowerCase();
  throw badInput(argument, `${argument} must be an EVM address: 0x followed by 40 hex digits`);
}

/** Splits `chainId:rest` natural keys used in global ids; `undefined` when malformed. */
export function splitKey(id: string): [string, string] | undefined {
  const i = id.indexOf(':');
  if (i <= 0 || i === id.length - 1) return undefined;
  return [id.slice(0, i), id.slice(i + 1)];
}

/** A block number argument (startBlock, endBlock, blockNumber): a whole number from 0 the upstream can take. */
export function parseBlockNumber(value: string, argument: string): number {
  const v = value.trim();
  if (BLOCK_NUMBER.test(v) && Number.isSafeInteger(Number(v))) return Number(v);
  throw badInput(argument, `${argument} must be a whole block number from 0`);
}

/** An address list's block range: startBlock inclusive, endBlock exclusive, so a non-empty range has startBlock < endBlock. */
export function parseBlockRange(args: { startBlock?: string | null; endBlock?: string | null }): {
  startBlock?: number;
  endBlock?: number;
} {
  const startBlock =
    args.startBlock == null ? undefined : parseBlockNumber(args.startBlock, 'startBlock');
  const endBlock = args.endBlock == null ? undefined : parseBlockNumber(args.endBlock, 'endBlock');
  if (startBlock !== undefined && endBlock !== undefined && startBlock >= endBlock) {
    throw badInput('startBlock', 'startBlock (inclusive) must be less than endBlock (exclusive)');
  }
  return { startBlock, endBlock };
}
