/**
 * Keccak-256 (the Ethereum variant, not NIST SHA3) for EIP-55 address checksums. Node's crypto has
 * no keccak. 64-bit lanes are held as two 32-bit halves (lo, hi) to avoid BigInt garbage.
 */

const RC_LO = new Uint32Array(24);
const RC_HI = new Uint32Array(24);
{
  let r = 1;
  for (let i = 0; i < 24; i++) {
    let lo = 0;
    let hi = 0;
    for (let j = 0; j < 7; j++) {
      r = ((r << 1) ^ ((r >> 7) * 0x71)) % 256;
      if (r & 2) {
        const bit = (1 << j) - 1;
        if (bit < 32) lo ^= 1 << bit;
        else hi ^= 1 << (bit - 32);
      }
    }
    RC_LO[i] = lo >>> 0;
    RC_HI[i] = hi >>> 0;
  }
}
const ROT = [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14];

function keccakF(s: Uint32Array): void {
  const cLo = new Uint32Array(5);
  const cHi = new Uint32Array(5);
  const bLo = new Uint32Array(25);
  const bHi = new Uint32Array(25);
  for (let round = 0; round < 24; round++) {
    for (let x = 0; x < 5; x++) {
      cLo[x] = s[2 * x]! ^ s[2 * (x + 5)]! ^ s[2 * (x + 10)]! ^ s[2 * (x + 15)]! ^ s[2 * (x + 20)]!;
      cHi[x] = s[2 * x + 1]! ^ s[2 * (x + 5) + 1]! ^ s[2 * (x + 10) + 1]! ^ s[2 * (x + 15) + 1]! ^ s[2 * (x + 20) + 1]!;
    }
    for (let x = 0; x < 5; x++) {
      const l = cLo[(x + 1) % 5]!;
      const h = cHi[(x + 1) % 5]!;
      const dLo = cLo[(x + 4) % 5]! ^ ((l << 1) | (h >>> 31));
      const dHi = cHi[(x + 4) % 5]! ^ ((h << 1) | (l >>> 31));
      for (let y = 0; y < 25; y += 5) {
        s[2 * (y + x)] = s[2 * (y + x)]! ^ dLo;
        s[2 * (y + x) + 1] = s[2 * (y + x) + 1]! ^ dHi;
      }
    }
    for (let x = 0; x < 5; x++) {
      for (let y = 0; y < 5; y++) {
        const src = x + 5 * y;
        const dst = y + ((2 * x + 3 * y) % 5) * 5;
        let lo = s[2 * src]!;
        let hi = s[2 * src + 1]!;
        let n = ROT[src]!;
        if (n >= 32) {
          [lo, hi] = [hi, lo];
          n -= 32;
        }
        if (n > 0) {
          const nl = (lo << n) | (hi >>> (32 - n));
          const nh = (hi << n) | (lo >>> (32 - n));
          lo = nl;
          hi = nh;
        }
        bLo[dst] = lo;
        bHi[dst] = hi;
      }
    }
    for (let x = 0; x < 5; x++) {
      for (let y = 0; y < 25; y += 5) {
        s[2 * (y + x)] = bLo[y + x]! ^ (~bLo[y + ((x + 1) % 5)]! & bLo[y + ((x + 2) % 5)]!);
        s[2 * (y + x) + 1] = bHi[y + x]! ^ (~bHi[y + ((x + 1) % 5)]! & bHi[y + ((x + 2) % 5)]!);
      }
    }
    s[0] = s[0]! ^ RC_LO[round]!;
    s[1] = s[1]! ^ RC_HI[round]!;
  }
}

export function keccak256(data: Uint8Array): Uint8Array {
  const rate = 136;
  const padded = new Uint8Array(Math.ceil((data.length + 1) / rate) * rate);
  padded.set(data);
  padded[data.length] = 0x01;
  padded[padded.length - 1] = padded[padded.length - 1]! | 0x80;
  const s = new Uint32Array(50);
  const view = new DataView(padded.buffer);
  for (let off = 0; off < padded.length; off += rate) {
    for (let i = 0; i < rate / 4; i++) s[i] = s[i]! ^ view.getUint32(off + i * 4, true);
    keccakF(s);
  }
  const out = new Uint8Array(32);
  const ov = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) ov.setUint32(i * 4, s[i]!, true);
  return out;
}

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
