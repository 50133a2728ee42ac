import { bech32 as bech32Codec } from '@scure/base';
import { bech32 } from '../world/index.js';
import { cb58Decode } from './go-args.js';
import { NodeRpcError } from './gorilla.js';
import type { NodeState } from './node-state.js';

/**
 * Primary-network address parsing as avalanchego's `avax.ParseServiceAddress` does it: a raw CB58
 * short id, or `<chain alias>-<bech32>` whose alias must name this chain and whose hrp must be the
 * network's. Error texts follow avalanchego and btcutil's bech32 package.
 */

/** The bech32 data alphabet (BIP-173). */
const BECH32_CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

/** bech32 → (hrp, payload hex), on `@scure/base`; throws Error with btcutil-like messages. */
export function bech32Decode(s: string): { hrp: string; hex: string } {
  if (s.length < 8 || s.length > 90) throw new Error(`invalid bech32 string length ${s.length}`);
  if (s !== s.toLowerCase() && s !== s.toUpperCase())
    throw new Error('string not all lowercase or all uppercase');
  const lower = s.toLowerCase();
  const sep = lower.lastIndexOf('1');
  if (sep < 1 || sep + 7 > lower.length) throw new Error(`invalid separator index ${sep}`);
  for (const ch of lower.slice(sep + 1))
    if (!BECH32_CHARSET.includes(ch))
      throw new Error(`invalid character not part of charset: ${ch.charCodeAt(0)}`);
  const decoded = bech32Codec.decodeUnsafe(lower, 90);
  if (!decoded) throw new Error('invalid checksum');
  const bytes = bech32Codec.fromWordsUnsafe(decoded.words) ?? [];
  return { hrp: decoded.prefix, hex: Buffer.from(bytes).toString('hex') };
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
