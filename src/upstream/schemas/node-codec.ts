import { sha256 } from '@noble/hashes/sha2.js';
import { base58, bech32 } from '@scure/base';

/**
 * The byte formats AvalancheGo's node APIs hand out, decoded with audited libraries
 * (`@scure/base` for base58 and bech32, `@noble/hashes` for sha256):
 * - CB58: base58 of the bytes followed by the last 4 bytes of their sha256 (ids: tx, block, asset, UTXO);
 *   not base58check, whose checksum is a double sha256;
 * - bech32 addresses (`X-avax1…`): 20 address bytes under the network's hrp, prefixed with a chain alias;
 * - the `hex` encoding of `getUTXOs`/`getBlock`/`getTx`: `0x` + bytes + the last 4 bytes of their sha256;
 * - Avalanche codec (version 0, big-endian, u32 type ids) for the layout we read: a UTXO with a
 *   secp256k1fx TransferOutput (type 7).
 * Ids of signed bytes (tx, block) are the CB58 of their sha256.
 */
const checksum = (b: Uint8Array) => sha256(b).subarray(-4);
const sameBytes = (a: Uint8Array, b: Uint8Array) => Buffer.compare(a, b) === 0;

export function cb58Encode(bytes: Uint8Array): string {
  return base58.encode(Buffer.concat([bytes, checksum(bytes)]));
}

/** base58 (Bitcoin alphabet) → bytes; undefined for a character outside the alphabet. */
export function base58Decode(s: string): Uint8Array | undefined {
  try {
    return base58.decode(s);
  } catch {
    return undefined;
  }
}

/** The payload of a CB58 string, or undefined when it is not CB58 or its checksum fails. */
export function cb58Decode(s: string): Uint8Array | undefined {
  if (s.length < 5 || s.length > 200) return undefined;
  const raw = base58Decode(s);
  if (!raw || raw.length < 4) return undefined;
  const body = raw.subarray(0, -4);
  return sameBytes(checksum(body), raw.subarray(-4)) ? body : undefined;
}

/** A CB58 id of 32 bytes (tx, block, asset, blockchain, subnet ids). */
export const isCb58Id = (s: string): boolean => cb58Decode(s)?.length === 32;

export const bech32Encode = (hrp: string, bytes: Uint8Array): string =>
  bech32.encode(hrp, bech32.toWords(bytes));

/** A bech32 string's hrp and payload, or undefined when malformed or its checksum fails. */
export function bech32Decode(s: string): { hrp: string; bytes: Uint8Array } | undefined {
  if (s.length < 8 || s.length > 90) return undefined;
  const decoded = bech32.decodeUnsafe(s);
  if (!decoded) return undefined;
  const bytes = bech32.fromWordsUnsafe(decoded.words);
  return bytes ? { hrp: decoded.prefix, bytes: Uint8Array.from(bytes) } : undefined;
}

/** The bytes of the node's checksummed `hex` encoding, or undefined when it is not one. */
export function hexBytes(s: string): Uint8Array | undefined {
  if (!/^0x([0-9a-fA-F]{2})*$/.test(s) || s.length < 10) return undefined;
  const raw = Buffer.from(s.slice(2), 'hex');
  const body = raw.subarray(0, -4);
  return sameBytes(checksum(body), raw.subarray(-4)) ? body : undefined;
}

/** The id of signed bytes (a tx or a block): CB58 of their sha256. */
export const idOfBytes = (bytes: Uint8Array): string => cb58Encode(sha256(bytes));

class Reader {
  #at = 0;
  constructor(private readonly b: Buffer) {}
  get done() {
    return this.#at === this.b.length;
  }
  take(n: number): Buffer {
    if (this.#at + n > this.b.length) throw new RangeError('short input');
    const out = this.b.subarray(this.#at, this.#at + n);
    this.#at += n;
    return out;
  }
  u16 = () => this.take(2).readUInt16BE();
  u32 = () => this.take(4).readUInt32BE();
  u64 = () => this.take(8).readBigUInt64BE();
}

/** secp256k1fx.TransferOutput's codec type id on the X-, P- and C-Chain shared-memory codec. */
const SECP_TRANSFER_OUTPUT = 7;

export interface DecodedUtxo {
  /** The UTXO id: sha256(u64 output index ‖ tx id), CB58. */
  id: string;
  txId: string;
  outputIndex: number;
  assetId: string;
  outputTypeId: number;
  /** Present for secp256k1fx transfer outputs (type 7); the others carry NFTs or properties. */
  /** Plain JSON data (pages of these are snapshotted as JSON): owners as 20-byte hex. */
  transfer: { amount: string; locktime: string; threshold: number; addressHex: string[] } | null;
}

/** Decodes one `hex` UTXO of `getUTXOs`; undefined when the bytes are not a version-0 UTXO. */
export function decodeUtxo(hex: string): DecodedUtxo | undefined {
  const bytes = hexBytes(hex);
  if (!bytes) return undefined;
  try {
    const r = new Reader(Buffer.from(bytes));
    if (r.u16() !== 0) return undefined;
    const txIdBytes = r.take(32);
    const outputIndex = r.u32();
    const assetId = cb58Encode(r.take(32));
    const outputTypeId = r.u32();
    let transfer: DecodedUtxo['transfer'] = null;
    if (outputTypeId === SECP_TRANSFER_OUTPUT) {
      const amount = r.u64().toString();
      const locktime = r.u64().toString();
      const threshold = r.u32();
      const n = r.u32();
      if (n > 1024) return undefined;
      const addressHex = Array.from({ length: n }, () => r.take(20).toString('hex'));
      if (!r.done) return undefined;
      transfer = { amount, locktime, threshold, addressHex };
    }
    const index = Buffer.alloc(8);
    index.writeBigUInt64BE(BigInt(outputIndex));
    return {
      id: cb58Encode(sha256(Buffer.concat([index, txIdBytes]))),
      txId: cb58Encode(txIdBytes),
      outputIndex,
      assetId,
      outputTypeId,
      transfer,
    };
  } catch {
    return undefined;
  }
}
