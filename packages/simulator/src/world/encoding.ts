import { createHash } from 'node:crypto';
import { sha256 } from '@noble/hashes/sha2.js';
import { base58, bech32 as bech32Codec } from '@scure/base';

/**
 * Encodings of Avalanche ids for the simulator: CB58 (base58 + the last 4 bytes of a single sha256,
 * not base58check) and bech32 addresses, on the audited `@scure/base` and `@noble/hashes`.
 */

/** CB58: base58 of the bytes followed by the last 4 bytes of their sha256. */
export function cb58(bytes: Uint8Array): string {
  const all = new Uint8Array(bytes.length + 4);
  all.set(bytes);
  all.set(sha256(bytes).subarray(-4), bytes.length);
  return base58.encode(all);
}

/** 32 bytes derived from a label: stable ids that do not depend on the seed. */
export function bytesFromLabel(label: string, n = 32): Uint8Array {
  return new Uint8Array(createHash('sha256').update(label).digest().subarray(0, n));
}

/** bech32 (BIP-173) of 20 address bytes, e.g. `avax1…` / `fuji1…`. */
export const bech32 = (hrp: string, bytes: Uint8Array): string =>
  bech32Codec.encode(hrp, bech32Codec.toWords(bytes));

/** True for a syntactically valid bech32 string with this hrp (checksum verified). */
export function isBech32(s: string, hrp: string): boolean {
  const decoded = bech32Codec.decodeUnsafe(s.toLowerCase());
  return decoded?.prefix === hrp;
}

export const isHexAddress = (s: string): boolean => /^0x[0-9a-fA-F]{40}$/.test(s);
export const isHexHash = (s: string): boolean => /^0x[0-9a-fA-F]{64}$/.test(s);

/** Decodes base58 (no checksum handling); throws on a character outside the alphabet. */
export const base58Decode = (s: string): Uint8Array => base58.decode(s);

/** The payload bytes of a CB58 string (checksum stripped, not verified). */
export function cb58Decode(s: string): Uint8Array {
  return base58Decode(s).subarray(0, -4);
}

export const toHex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
