import { badInput } from '../errors.js';

/**
 * Checks on EVM state arguments, made before any upstream call (BAD_USER_INPUT naming the
 * argument).
 */
const BLOCK_NUMBER = /^(0|[1-9]\d{0,19})$/;
const HASH_32 = /^0x[0-9a-fA-F]{64}$/;
const HEX_BYTES = /^0x([0-9a-fA-F]{2})*$/;
const QUANTITY = /^0x[0-9a-fA-F]{1,64}$/;
/**
 * Largest call data accepted (a contract's init code is capped at 48 KiB; calls are far smaller).
 */
export const MAX_CALL_DATA_BYTES = 128 * 1024;
/** Most storage keys one proof may ask for. */
export const MAX_PROOF_KEYS = 64;

/** `latest`, a decimal block number (≤ 2^64-1) or a block hash (lower-cased). */
export function parseBlockTag(value: string, argument: string): string {
  const v = value.trim();
  if (v === 'latest') return v;
  if (BLOCK_NUMBER.test(v) && BigInt(v) < 2n ** 64n) return v;
  if (HASH_32.test(v)) return v.toLowerCase();
  throw badInput(
    argument,
    `${argument} must be "latest", a decimal block number or a block hash ` +
      '(0x followed by 64 hex digits)',
  );
}

/** A storage slot: a 0x quantity or 32-byte word, or a decimal; normalized to a 32-byte word. */
export function parseSlot(value: string, argument = 'slot'): string {
  const v = value.trim();
  let n: bigint;
  if (QUANTITY.test(v)) n = BigInt(v);
  else if (/^\d{1,78}$/.test(v)) n = BigInt(v);
  else
    throw badInput(
      argument,
      `${argument} must be a storage slot: 0x hex (up to 32 bytes) or decimal`,
    );
  if (n >= 2n ** 256n) throw badInput(argument, `${argument} must be below 2^256`);
  return `0x${n.toString(16).padStart(64, '0')}`;
}

export function parseCallData(value: string, argument = 'data'): string {
  const v = value.trim();
  if (!HEX_BYTES.test(v))
    throw badInput(argument, `${argument} must be 0x-hex bytes (an even number of hex digits)`);
  if ((v.length - 2) / 2 > MAX_CALL_DATA_BYTES)
    throw badInput(argument, `${argument} is longer than ${MAX_CALL_DATA_BYTES} bytes`);
  return v.toLowerCase();
}

/** Wei as a decimal string below 2^256. */
export function parseWei(value: string, argument = 'value'): string {
  const v = value.trim();
  if (!/^\d{1,78}$/.test(v) || BigInt(v) >= 2n ** 256n)
    throw badInput(argument, `${argument} must be a decimal amount of wei below 2^256`);
  return BigInt(v).toString();
}

export function parseHash(value: string, argument: string): string {
  const v = value.trim();
  if (!HASH_32.test(v))
    throw badInput(argument, `${argument} must be 0x followed by 64 hex digits`);
  return v.toLowerCase();
}
