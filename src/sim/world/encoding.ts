import { createHash } from 'node:crypto';

/** Encodings of Avalanche ids: CB58 (base58 + 4-byte sha256 checksum) and bech32 addresses. */

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

const B58_5 = 58 ** 5;

export function base58(bytes: Uint8Array): string {
  // Digit-array conversion in base 58^5 (5 characters per limb): no BigInt, few iterations.
  const limbs: number[] = [];
  for (const byte of bytes) {
    let carry = byte;
    for (let j = 0; j < limbs.length; j++) {
      carry += limbs[j]! * 256;
      limbs[j] = carry % B58_5;
      carry = Math.floor(carry / B58_5);
    }
    while (carry > 0) {
      limbs.push(carry % B58_5);
      carry = Math.floor(carry / B58_5);
    }
  }
  const chars: string[] = [];
  for (let i = 0; i < limbs.length; i++) {
    let limb = limbs[i]!;
    for (let k = 0; k < 5; k++) {
      chars.push(B58[limb % 58]!);
      limb = Math.floor(limb / 58);
    }
  }
  while (chars.length > 0 && chars[chars.length - 1] === '1') chars.pop();
  for (const b of bytes) {
    if (b !== 0) break;
    chars.push('1');
  }
  return chars.reverse().join('');
}

/** CB58: base58 of the bytes followed by the last 4 bytes of their sha256. */
export function cb58(bytes: Uint8Array): string {
  const sum = createHash('sha256').update(bytes).digest();
  const all = new Uint8Array(bytes.length + 4);
  all.set(bytes);
  all.set(sum.subarray(sum.length - 4), bytes.length);
  return base58(all);
}

/** 32 bytes derived from a label: stable ids that do not depend on the seed. */
export function bytesFromLabel(label: string, n = 32): Uint8Array {
  return new Uint8Array(createHash('sha256').update(label).digest().subarray(0, n));
}

const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
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

function hrpExpand(hrp: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < hrp.length; i++) out.push(hrp.charCodeAt(i) >> 5);
  out.push(0);
  for (let i = 0; i < hrp.length; i++) out.push(hrp.charCodeAt(i) & 31);
  return out;
}

function toWords(bytes: Uint8Array): number[] {
  let acc = 0;
  let bits = 0;
  const out: number[] = [];
  for (const b of bytes) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out.push((acc >> bits) & 31);
    }
  }
  if (bits > 0) out.push((acc << (5 - bits)) & 31);
  return out;
}

/** bech32 (BIP-173) of 20 address bytes, e.g. `avax1…` / `fuji1…`. */
export function bech32(hrp: string, bytes: Uint8Array): string {
  const words = toWords(bytes);
  const mod = polymod([...hrpExpand(hrp), ...words, 0, 0, 0, 0, 0, 0]) ^ 1;
  const checksum = Array.from({ length: 6 }, (_, i) => (mod >> (5 * (5 - i))) & 31);
  return `${hrp}1${[...words, ...checksum].map((w) => BECH32[w]).join('')}`;
}

/** True for a syntactically valid bech32 string with this hrp (checksum verified). */
export function isBech32(s: string, hrp: string): boolean {
  const lower = s.toLowerCase();
  if (!lower.startsWith(`${hrp}1`)) return false;
  const data: number[] = [];
  for (const ch of lower.slice(hrp.length + 1)) {
    const v = BECH32.indexOf(ch);
    if (v < 0) return false;
    data.push(v);
  }
  return data.length >= 6 && polymod([...hrpExpand(hrp), ...data]) === 1;
}

export const isHexAddress = (s: string): boolean => /^0x[0-9a-fA-F]{40}$/.test(s);
export const isHexHash = (s: string): boolean => /^0x[0-9a-fA-F]{64}$/.test(s);

/** Decodes base58 (no checksum handling). */
export function base58Decode(s: string): Uint8Array {
  let n = 0n;
  for (const ch of s) {
    const v = B58.indexOf(ch);
    if (v < 0) throw new Error(`invalid base58 character ${ch}`);
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
  return new Uint8Array(bytes);
}

/** The payload bytes of a CB58 string (checksum stripped, not verified). */
export function cb58Decode(s: string): Uint8Array {
  return base58Decode(s).subarray(0, -4);
}

export const toHex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
