import { createHash } from 'node:crypto';
import { cb58 } from '../world/index.js';
import type { Encoding } from './go-args.js';
import { NodeRpcError } from './gorilla.js';

/**
 * Avalanche codec bytes (version 0, big-endian, u32 type ids and lengths) for what the node's
 * hex encodings carry, and avalanchego's `formatting` hex encodings: `hex`/`hexc` append the last
 * 4 bytes of sha256 as a checksum, `hexnc` does not; `json` is not a byte encoding.
 */

export const u16 = (n: number) => n.toString(16).padStart(4, '0');
export const u32 = (n: number) => (n >>> 0).toString(16).padStart(8, '0');
export const u64 = (n: bigint | number) => BigInt(n).toString(16).padStart(16, '0');

export const sha256Hex = (hex: string) =>
  createHash('sha256').update(Buffer.from(hex, 'hex')).digest('hex');
/** The id of signed bytes: CB58 of their sha256. */
export const idOf = (hex: string) => cb58(Buffer.from(sha256Hex(hex), 'hex'));

/** formatting.Encode for byte encodings; json → the node's "unsupported encoding in method". */
export function encodeBytes(encoding: Encoding, hex: string): string {
  if (encoding === 'json') throw new NodeRpcError('unsupported encoding in method');
  if (encoding === 'hexnc') return `0x${hex}`;
  return `0x${hex}${sha256Hex(hex).slice(-8)}`;
}

/** formatting.Decode: returns the bytes (hex) or throws the node's error text. */
export function decodeBytes(encoding: Encoding, s: string): string {
  if (encoding === 'json') throw new NodeRpcError('unsupported encoding in method');
  if (s.length === 0) return '';
  if (!s.startsWith('0x')) throw new NodeRpcError('missing 0x prefix to hex encoding');
  const hex = s.slice(2);
  if (hex.length % 2 !== 0) throw new NodeRpcError('encoding/hex: odd length hex string');
  const bad = /[^0-9a-fA-F]/.exec(hex);
  if (bad)
    throw new NodeRpcError(
      `encoding/hex: invalid byte: U+${bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')} ${JSON.stringify(bad[0]).replace(/"/g, "'")}`,
    );
  if (encoding === 'hexnc') return hex.toLowerCase();
  if (hex.length < 8) throw new NodeRpcError('input string is smaller than the checksum size');
  const body = hex.slice(0, -8).toLowerCase();
  if (sha256Hex(body).slice(-8) !== hex.slice(-8).toLowerCase())
    throw new NodeRpcError('invalid input checksum');
  return body;
}

export interface TransferOut {
  assetIdHex: string;
  amount: bigint;
  locktime: number;
  threshold: number;
  addressHex: string[];
}

export interface TransferIn {
  txIdHex: string;
  outputIndex: number;
  assetIdHex: string;
  amount: bigint;
}

const outBytes = (o: TransferOut) =>
  o.assetIdHex +
  u32(7) +
  u64(o.amount) +
  u64(o.locktime) +
  u32(o.threshold) +
  u32(o.addressHex.length) +
  o.addressHex.join('');
const inBytes = (i: TransferIn) =>
  i.txIdHex + u32(i.outputIndex) + i.assetIdHex + u32(5) + u64(i.amount) + u32(1) + u32(0);

/** A UTXO: codec version, tx id, output index, asset id and a secp256k1fx transfer output. */
export const utxoBytes = (txIdHex: string, outputIndex: number, out: TransferOut) =>
  u16(0) + txIdHex + u32(outputIndex) + outBytes(out);

/** A deterministic 65-byte secp256k1 signature stand-in for signer `k` over `seedHex`. */
export const signatureHex = (seedHex: string, k: number) =>
  `${sha256Hex(seedHex + u32(k)) + sha256Hex(u32(k) + seedHex)}00`;

const credentials = (n: number, seedHex: string) =>
  u32(n) + Array.from({ length: n }, (_, k) => u32(9) + u32(1) + signatureHex(seedHex, k)).join('');

/** A signed X-Chain BaseTx (type 0) or ExportTx (type 4, with exported outputs). */
export function xTxBytes(
  networkId: number,
  chainIdHex: string,
  outs: TransferOut[],
  ins: TransferIn[],
  memoHex: string,
  exportTo?: { chainIdHex: string; outs: TransferOut[] },
): { hex: string; sigs: string[] } {
  let body = u16(0) + u32(exportTo ? 4 : 0) + u32(networkId) + chainIdHex;
  body +=
    u32(outs.length) + outs.map(outBytes).join('') + u32(ins.length) + ins.map(inBytes).join('');
  body += u32(memoHex.length / 2) + memoHex;
  if (exportTo)
    body += exportTo.chainIdHex + u32(exportTo.outs.length) + exportTo.outs.map(outBytes).join('');
  return {
    hex: body + credentials(ins.length, body),
    sigs: ins.map((_, k) => signatureHex(body, k)),
  };
}

/** A post-Cortina X-Chain StandardBlock (type 32) holding signed txs; avalanchego leaves its merkle root empty. */
export function xBlockBytes(
  parentIdHex: string,
  height: number,
  time: number,
  txsHex: string[],
): string {
  const root = '00'.repeat(32);
  return (
    u16(0) +
    u32(32) +
    parentIdHex +
    u64(height) +
    u64(time) +
    root +
    u32(txsHex.length) +
    txsHex.map((t) => t.slice(4)).join('')
  );
}

/** A C-Chain atomic ExportTx (type 1): EVM inputs (address, amount, asset, nonce) → exported outputs. */
export function cExportTxBytes(
  networkId: number,
  cChainIdHex: string,
  destChainIdHex: string,
  evmIn: { addressHex: string; amount: bigint; assetIdHex: string; nonce: number },
  outs: TransferOut[],
): string {
  const body =
    u16(0) +
    u32(1) +
    u32(networkId) +
    cChainIdHex +
    destChainIdHex +
    u32(1) +
    evmIn.addressHex +
    u64(evmIn.amount) +
    evmIn.assetIdHex +
    u64(evmIn.nonce) +
    u32(outs.length) +
    outs.map(outBytes).join('');
  return body + credentials(1, body);
}
