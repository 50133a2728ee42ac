import { createHash } from 'node:crypto';

/**
 * The byte formats AvalancheGo's node APIs hand out, decoded without a dependency:
 * - CB58: base58 of the bytes followed by the last 4 bytes of their sha256 (ids: tx, block, asset, UTXO);
 * - bech32 addresses (`X-avax1…`): 20 address bytes under the network's hrp, prefixed with a chain alias;
 * - the `hex` encoding of `getUTXOs`/`getBlock`/`getTx`: `0x` + bytes + the last 4 bytes of their sha256;
 * - Avalanche codec (version 0, big-endian, u32 type ids) for the layout we read: a UTXO with a
 *   secp256k1fx TransferOutput (type 7).
 * Ids of signed bytes (tx, block) are the CB58 of their sha256.
 */
const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest();

function base58Encode(bytes: Uint8Array): string {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  let out = '';
  while (n > 0n) {
    out = B58[Number(n % 58n)]! + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = `1${out}`;
  }
  return out;
}

function base58Decode(s: string): Uint8Array | undefined {
  let n = 0n;
  for (const ch of s) {
    const v = B58.indexOf(ch);
    if (v < 0) return undefined;
    n = n * 58n + BigInt(v);
  }
  const bytes: number[] = [];
  while (n > 0n) {
    bytes.unshift(Number(n & 0xffn));
    n >>= 8n;
  }
  for (const ch of s) {
    if (ch !== '1') break;
    bytes.unshift(0);
  }
  return Uint8Array.from(bytes);
}

export function cb58Encode(bytes: Uint8Array): string {
  const sum = sha256(bytes).subarray(-4);
  return base58Encode(Buffer.concat([bytes, sum]));
}

/** The payload of a CB58 string, or undefined when it is not CB58 or its checksum fails. */
export function cb58Decode(s: string): Uint8Array | undefined {
  if (s.length < 5 || s.length > 200) return undefined;
  const raw = base58Decode(s);
  if (!raw || raw.length < 4) return undefined;
  const body = raw.subarray(0, -4);
  return Buffer.compare(sha256(body).subarray(-4), raw.subarray(-4)) === 0 ? body : undefined;
}

/** A CB58 id of 32 bytes (tx, block, asset, blockchain, subnet ids). */
export const isCb58Id = (s: string): boolean => cb58Decode(s)?.length === 32;

const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const GEN = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];

function polymod(values: number[]): number {
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= GEN[i]!;
  }
  return chk;
}
const hrpExpand = (hrp: string) => [...[...hrp].map((c) => c.charCodeAt(0) >> 5), 0, ...[...hrp].map((c) => c.charCodeAt(0) & 31)];

function convertBits(data: ArrayLike<number>, from: number, to: number, pad: boolean): number[] | undefined {
  let acc = 0;
  let bits = 0;
  const out: number[] = [];
  const max = (1 << to) - 1;
  for (let i = 0; i < data.length; i++) {
    acc = (acc << from) | data[i]!;
    bits += from;
    while (bits >= to) {
      bits -= to;
      out.push((acc >> bits) & max);
    }
  }
  if (pad && bits > 0) out.push((acc << (to - bits)) & max);
  else if (!pad && (bits >= from || ((acc << (to - bits)) & max) !== 0)) return undefined;
  return out;
}

export function bech32Encode(hrp: string, bytes: Uint8Array): string {
  const data = convertBits(bytes, 8, 5, true)!;
  const mod = polymod([...hrpExpand(hrp), ...data, 0, 0, 0, 0, 0, 0]) ^ 1;
  const checksum = Array.from({ length: 6 }, (_, i) => (mod >> (5 * (5 - i))) & 31);
  return `${hrp}1${[...data, ...checksum].map((v) => CHARSET[v]).join('')}`;
}

/** A bech32 string's hrp and payload, or undefined when malformed or its checksum fails. */
export function bech32Decode(s: string): { hrp: string; bytes: Uint8Array } | undefined {
  if (s.length < 8 || s.length > 90 || (s !== s.toLowerCase() && s !== s.toUpperCase())) return undefined;
  const lower = s.toLowerCase();
  const sep = lower.lastIndexOf('1');
  if (sep < 1 || sep + 7 > lower.length) return undefined;
  const hrp = lower.slice(0, sep);
  const data = [...lower.slice(sep + 1)].map((c) => CHARSET.indexOf(c));
  if (data.some((v) => v < 0) || polymod([...hrpExpand(hrp), ...data]) !== 1) return undefined;
  const bytes = convertBits(data.slice(0, -6), 5, 8, false);
  return bytes ? { hrp, bytes: Uint8Array.from(bytes) } : undefined;
}

/** The bytes of the node's checksummed `hex` encoding, or undefined when it is not one. */
export function hexBytes(s: string): Uint8Array | undefined {
  if (!/^0x([0-9a-fA-F]{2})*$/.test(s) || s.length < 10) return undefined;
  const raw = Buffer.from(s.slice(2), 'hex');
  const body = raw.subarray(0, -4);
  return Buffer.compare(sha256(body).subarray(-4), raw.subarray(-4)) === 0 ? body : undefined;
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
    return { id: cb58Encode(sha256(Buffer.concat([index, txIdBytes]))), txId: cb58Encode(txIdBytes), outputIndex, assetId, outputTypeId, transfer };
  } catch {
    return undefined;
  }
}
