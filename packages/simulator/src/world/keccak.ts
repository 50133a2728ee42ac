import { keccak_256 } from '@noble/hashes/sha3.js';

/** Keccak-256 (the Ethereum variant, not NIST SHA3), from the audited `@noble/hashes`. */
export const keccak256 = (data: Uint8Array): Uint8Array => keccak_256(data);

/** EIP-55 mixed-case checksum of a 0x address. */
export function toChecksumAddress(address: string): string {
  const lower = address.toLowerCase().replace(/^0x/, '');
  const hash = keccak256(new TextEncoder().encode(lower));
  let out = '0x';
  for (let i = 0; i < 40; i++) {
    const nibble = (hash[i >> 1]! >> (i % 2 === 0 ? 4 : 0)) & 0xf;
    out += nibble >= 8 ? lower[i]!.toUpperCase() : lower[i]!;
  }
  return out;
}
