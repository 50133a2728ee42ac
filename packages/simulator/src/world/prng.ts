/**
 * A small seeded PRNG: xmur3 turns a string into a 32-bit seed, mulberry32 draws from it.
 * Everything the world holds is derived from `Rng`s keyed by (world seed, purpose), so a given
 * seed always yields the same world, whatever order its parts are generated in.
 */

/** xmur3 string hash → 32-bit unsigned seed. */
export function hashString(s: string): number {
  let h = 1779033703 ^ s.length;
  for (let i = 0; i < s.length; i++) {
    h = Math.imul(h ^ s.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  h = Math.imul(h ^ (h >>> 16), 2246822507);
  h = Math.imul(h ^ (h >>> 13), 3266489909);
  return (h ^ (h >>> 16)) >>> 0;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export class Rng {
  private state: number;

  constructor(seed: number | string) {
    this.state = typeof seed === 'number' ? seed >>> 0 : hashString(seed);
  }

  /** mulberry32: uniform 32-bit unsigned integer. */
  u32(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** Uniform float in [0, 1). */
  next(): number {
    return this.u32() / 4294967296;
  }

  /** Uniform integer in [min, max] (inclusive). */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Rng.pick: empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** `n` random bytes as lower-case hex, without 0x. */
  hex(n: number): string {
    let s = '';
    for (let i = 0; i < n; i += 4) {
      const r = this.u32();
      s += HEX[r & 0xff]! + HEX[(r >>> 8) & 0xff]! + HEX[(r >>> 16) & 0xff]! + HEX[r >>> 24]!;
    }
    return n % 4 === 0 ? s : s.slice(0, n * 2);
  }

  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = this.u32() & 0xff;
    return out;
  }

  /** A random bigint in [0, max) for max up to ~2^96 (three draws). */
  bigint(max: bigint): bigint {
    const r = (BigInt(this.u32()) << 64n) | (BigInt(this.u32()) << 32n) | BigInt(this.u32());
    return max <= 0n ? 0n : r % max;
  }
}

/** A fresh Rng for one purpose under one world seed. */
export function rngFor(seed: string, ...purpose: (string | number)[]): Rng {
  return new Rng(`${seed}|${purpose.join('|')}`);
}
