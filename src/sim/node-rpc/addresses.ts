import { bech32 } from '../world/index.js';
import { cb58Decode } from './go-args.js';
import { NodeRpcError } from './gorilla.js';
import type { NodeState } from './node-state.js';

/**
 * Primary-network address parsing as avalanchego's `avax.ParseServiceAddress` does it: a raw CB58
 * short id, or `<chain alias>-<bech32>` whose alias must name this chain and whose hrp must be the
 * network's. Error texts follow avalanchego and btcutil's bech32 package.
 */

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

const hrpExpand = (hrp: string) => [
  ...[...hrp].map((c) => c.charCodeAt(0) >> 5),
  0,
  ...[...hrp].map((c) => c.charCodeAt(0) & 31),
];

/** bech32 → (hrp, 20-byte hex); throws Error with btcutil-like messages. */
export function bech32Decode(s: string): { hrp: string; hex: string } {
  if (s.length < 8 || s.length > 90) throw new Error(`invalid bech32 string length ${s.length}`);
  if (s !== s.toLowerCase() && s !== s.toUpperCase())
    throw new Error('string not all lowercase or all uppercase');
  const lower = s.toLowerCase();
  const sep = lower.lastIndexOf('1');
  if (sep < 1 || sep + 7 > lower.length) throw new Error(`invalid separator index ${sep}`);
  const hrp = lower.slice(0, sep);
  const data: number[] = [];
  for (const ch of lower.slice(sep + 1)) {
    const v = CHARSET.indexOf(ch);
    if (v < 0) throw new Error(`invalid character not part of charset: ${ch.charCodeAt(0)}`);
    data.push(v);
  }
  if (polymod([...hrpExpand(hrp), ...data]) !== 1) throw new Error('invalid checksum');
  let acc = 0;
  let bits = 0;
  const out: number[] = [];
  for (const v of data.slice(0, -6)) {
    acc = (acc << 5) | v;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out.push((acc >> bits) & 0xff);
    }
  }
  return { hrp, hex: Buffer.from(out).toString('hex') };
}

/** `<alias>-<bech32>` of 20 address bytes (hex). */
export function formatAddress(alias: string, hrp: string, hex: string): string {
  return `${alias}-${bech32(hrp, Buffer.from(hex, 'hex'))}`;
}

/** Parses an address local to `chainId` (X or C) into its 20 bytes (hex); throws the node's error. */
export function parseServiceAddress(state: NodeState, chainId: string, addr: string): string {
  const short = cb58Decode(addr);
  if (short?.length === 20) return Buffer.from(short).toString('hex');
  const fail = (why: string): never => {
    throw new NodeRpcError(`couldn't parse address ${JSON.stringify(addr)}: ${why}`);
  };
  const dash = addr.indexOf('-');
  if (dash < 0) fail('no separator found in address');
  const alias = addr.slice(0, dash);
  let decoded: { hrp: string; hex: string };
  try {
    decoded = bech32Decode(addr.slice(dash + 1));
  } catch (e) {
    return fail((e as Error).message);
  }
  const chain = state.chainOf(alias);
  if (!chain) fail(`there is no ID with alias: ${alias}`);
  const hrp = state.net.info.hrp;
  if (decoded.hrp !== hrp)
    fail(`expected hrp ${JSON.stringify(hrp)} but got ${JSON.stringify(decoded.hrp)}`);
  if (decoded.hex.length !== 40) fail(`expected 20 bytes but got ${decoded.hex.length / 2}`);
  if (chain!.id !== chainId)
    fail(
      `mismatched chainIDs: expected ${JSON.stringify(chainId)} but got ${JSON.stringify(chain!.id)}`,
    );
  return decoded.hex;
}
