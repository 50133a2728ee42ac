import { keccak_256 } from '@noble/hashes/sha3.js';

/**
 * A block header's `logsBloom` (the Yellow Paper's M3:2048): each log's address and indexed topics set
 * three of 2048 bits, the low 11 bits of the first three 16-bit big-endian words of the item's
 * Keccak-256 (bit i is bit i % 8 of byte 255 - ⌊i / 8⌋). A bloom never says no to an item it holds;
 * it may say yes to one it does not (a false positive), more often the more logs the block has.
 */
export class LogsBloom {
  readonly #bytes: Uint8Array;

  private constructor(bytes: Uint8Array) {
    this.#bytes = bytes;
  }

  /** The header's bloom; undefined when it is not 256 bytes of hex (then nothing can be ruled out). */
  static of(hex: unknown): LogsBloom | undefined {
    if (typeof hex !== 'string' || !/^0x[0-9a-fA-F]{512}$/.test(hex)) return undefined;
    return new LogsBloom(Uint8Array.from(Buffer.from(hex.slice(2), 'hex')));
  }

  /** Whether the bloom may hold `item` (a 20-byte address or a 32-byte topic, 0x-hex). */
  has(item: string): boolean {
    return this.hasBits(bloomBits(item));
  }

  /** Whether the bloom may hold the item whose three bits are `bits` (`bloomBits`, computed once). */
  hasBits(bits: readonly number[]): boolean {
    return bits.every((bit) => (this.#bytes[255 - (bit >> 3)]! & (1 << (bit & 7))) !== 0);
  }
}

/** The three bloom bits an item (0x-hex) sets. */
export function bloomBits(item: string): number[] {
  const h = keccak_256(Buffer.from(item.slice(2), 'hex'));
  return [0, 2, 4].map((i) => ((h[i]! << 8) | h[i + 1]!) & 2047);
}

/** An address as an indexed topic: 32 bytes, left-padded with zeros, lower case. */
export const topicOfAddress = (address: string): string =>
  `0x${address.toLowerCase().slice(2).padStart(64, '0')}`;
