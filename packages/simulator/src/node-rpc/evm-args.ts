import type { EthArg } from './geth.js';
import { goJsonKind } from './go-json.js';

/**
 * go-ethereum argument types as coreth decodes them, with their error texts (the geth core
 * prefixes "invalid argument N: "): hexutil quantities, rpc.BlockNumber, rpc.BlockNumberOrHash,
 * common.Hash / common.Address and plain bools.
 */

export type BlockTag = 'latest' | 'earliest' | 'pending' | 'finalized' | 'safe';
export type BlockRef = { tag: BlockTag } | { number: bigint } | { hash: string };

const MAX_INT64 = (1n << 63n) - 1n;

/** hexutil.DecodeUint64. */
function decodeUint64(input: string): bigint {
  if (input.length === 0) throw new Error('empty hex string');
  if (!/^0[xX]/.test(input)) throw new Error('hex string without 0x prefix');
  const digits = input.slice(2);
  if (digits.length === 0) throw new Error('hex string "0x"');
  if (digits.length > 1 && digits[0] === '0')
    throw new Error('hex number with leading zero digits');
  if (!/^[0-9a-fA-F]+$/.test(digits)) throw new Error('invalid hex string');
  const n = BigInt(`0x${digits}`);
  if (n >= 1n << 64n) throw new Error('hex number > 64 bits');
  return n;
}

function keyword(s: string): BlockTag | undefined {
  if (s === 'latest' || s === 'earliest' || s === 'pending' || s === 'safe') return s;
  if (s === 'accepted' || s === 'finalized') return 'finalized';
  return undefined;
}

/** rpc.BlockNumber: a tag or a hex number (a JSON number is read as its text: no 0x prefix). */
export const blockNumberArg: EthArg<BlockRef> = {
  decode(raw) {
    const text = typeof raw === 'string' ? raw : JSON.stringify(raw);
    const tag = keyword(text);
    if (tag) return { tag };
    const n = decodeUint64(text);
    if (n > MAX_INT64) throw new Error('block number larger than int64');
    return { number: n };
  },
};

/** hexutil.UnmarshalFixedJSON for a byte array of `size` bytes named `type`. */
function fixedHex(raw: unknown, size: number, type: string): string {
  if (typeof raw !== 'string')
    throw new Error(`json: cannot unmarshal non-string into Go value of type ${type}`);
  if (raw.length === 0) throw new Error(`hex string has length 0, want ${size * 2} for ${type}`);
  if (!/^0[xX]/.test(raw))
    throw new Error(
      `json: cannot unmarshal hex string without 0x prefix into Go value of type ${type}`,
    );
  const digits = raw.slice(2);
  if (digits.length % 2 !== 0)
    throw new Error(
      `json: cannot unmarshal hex string of odd length into Go value of type ${type}`,
    );
  if (digits.length !== size * 2)
    throw new Error(`hex string has length ${digits.length}, want ${size * 2} for ${type}`);
  if (!/^[0-9a-fA-F]*$/.test(digits))
    throw new Error(`json: cannot unmarshal invalid hex string into Go value of type ${type}`);
  return `0x${digits.toLowerCase()}`;
}

export const hashArg: EthArg<string> = { decode: (raw) => fixedHex(raw, 32, 'common.Hash') };
export const addressArg: EthArg<string> = { decode: (raw) => fixedHex(raw, 20, 'common.Address') };

export const boolArg: EthArg<boolean> = {
  decode(raw) {
    if (raw === null) return false;
    if (typeof raw !== 'boolean')
      throw new Error(`json: cannot unmarshal ${goJsonKind(raw)} into Go value of type bool`);
    return raw;
  },
};

/** rpc.BlockNumberOrHash: `{blockNumber}` / `{blockHash}` objects, a tag, a 66-char hash, or a hex number. */
export const blockNumberOrHashArg: EthArg<BlockRef | undefined> = {
  decode(raw) {
    if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) {
      const o = raw as Record<string, unknown>;
      const num = o.blockNumber ?? null;
      const hash = o.blockHash ?? null;
      if (num !== null && hash !== null)
        throw new Error('cannot specify both BlockHash and BlockNumber, choose one or the other');
      if (num !== null) return blockNumberArg.decode(num);
      if (hash !== null) return { hash: hashArg.decode(hash) };
      return undefined;
    }
    if (typeof raw !== 'string')
      throw new Error(`json: cannot unmarshal ${goJsonKind(raw)} into Go value of type string`);
    const tag = keyword(raw);
    if (tag) return { tag };
    if (raw.length === 66) {
      if (!/^0[xX][0-9a-fA-F]{64}$/.test(raw))
        throw new Error(/^0[xX]/.test(raw) ? 'invalid hex string' : 'hex string without 0x prefix');
      return { hash: raw.toLowerCase() };
    }
    const n = decodeUint64(raw);
    if (n > MAX_INT64) throw new Error('blocknumber too high');
    return { number: n };
  },
};
