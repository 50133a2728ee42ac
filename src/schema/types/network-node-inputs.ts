import type { GatewayContext } from '../../context.js';
import { badInput } from '../../errors.js';
import type { NodeHandle } from '../../loaders/node.js';
import { bech32Decode, hexBytes, isCb58Id } from '../../upstream/schemas/node-codec.js';

/**
 * Checks on node arguments, made before any upstream call; each failure is BAD_USER_INPUT naming the
 * argument. Only configured nodes can be addressed (by name): the gateway never forwards to a URL a
 * client chose.
 */

export function nodeByName(
  ctx: GatewayContext,
  name: string | null | undefined,
  argument = 'name',
): NodeHandle {
  const node = ctx.loaders.node.get(name ?? null);
  if (!node) {
    throw badInput(
      argument,
      `${argument}: no node named "${String(name).slice(0, 64)}" is configured (configured: ${ctx.loaders.node.names.join(', ')})`,
    );
  }
  return node;
}

/** A CB58 id of 32 bytes (block, tx, asset, blockchain, subnet id), checksum verified. */
export function parseId(value: string, argument: string, what = 'id'): string {
  const v = value.trim();
  if (v.length > 64 || !isCb58Id(v))
    throw badInput(
      argument,
      `${argument} must be a CB58 ${what} (base58 with a valid checksum, 32 bytes)`,
    );
  return v;
}

/** A chain as the node names it: a CB58 blockchain id or an alias such as `X`, `P`, `C`. */
export function parseChainRef(value: string, argument: string): string {
  const v = value.trim();
  if (isCb58Id(v) || /^[A-Za-z][\w.-]{0,63}$/.test(v)) return v;
  throw badInput(
    argument,
    `${argument} must be a blockchain id (CB58) or a chain alias such as "X", "P" or "C"`,
  );
}

/** An asset id (CB58) or an alias the X-Chain knows (e.g. `AVAX`). */
export function parseAssetRef(value: string, argument: string): string {
  const v = value.trim();
  if (isCb58Id(v) || /^[A-Za-z0-9]{1,16}$/.test(v)) return v;
  throw badInput(
    argument,
    `${argument} must be an asset id (CB58) or an asset alias such as "AVAX"`,
  );
}

/** A non-negative integer given as a decimal string (heights). */
export function parseUint(value: string, argument: string): string {
  const v = value.trim();
  if (/^(0|[1-9]\d{0,19})$/.test(v) && BigInt(v) < 2n ** 64n) return v;
  throw badInput(argument, `${argument} must be a non-negative integer`);
}

/**
 * A shared-memory address of one chain: `<alias>-<bech32>` with a 20-byte payload (the prefix is added when
 * omitted). The hrp must be one network's (`avax`, `fuji`, `local`…); the node checks it against its own.
 */
export function parseChainAddress(
  value: string,
  alias: 'X' | 'C',
  argument: string,
): { address: string; hrp: string } {
  const v = value.trim();
  const dash = v.indexOf('-');
  const prefix = dash > 0 ? v.slice(0, dash) : alias;
  const bare = dash > 0 ? v.slice(dash + 1) : v;
  const decoded = bech32Decode(bare);
  if (prefix !== alias || !decoded || decoded.bytes.length !== 20) {
    throw badInput(
      argument,
      `${argument}: "${v.slice(0, 100)}" is not a ${alias}-Chain address (bech32 such as ${alias}-avax1…, with a valid checksum)`,
    );
  }
  return { address: `${alias}-${bare.toLowerCase()}`, hrp: decoded.hrp };
}

/** Addresses of one chain and one network (so the page's UTXO owners render with that network's hrp). */
export function parseChainAddresses(
  values: readonly string[],
  alias: 'X' | 'C',
  argument = 'addresses',
  max = 256,
): { addresses: string[]; hrp: string } {
  if (values.length === 0) throw badInput(argument, `${argument} must name at least one address`);
  if (values.length > max) throw badInput(argument, `${argument} takes at most ${max} addresses`);
  const parsed = values.map((a) => parseChainAddress(a, alias, argument));
  const hrp = parsed[0]!.hrp;
  if (parsed.some((p) => p.hrp !== hrp))
    throw badInput(argument, `${argument} must all belong to one network (one bech32 prefix)`);
  return { addresses: [...new Set(parsed.map((p) => p.address))].sort(), hrp };
}

/** A signed transaction in the node's `hex` encoding: 0x + bytes + their 4-byte sha256 checksum. */
export function parseSignedTx(value: string, argument = 'tx'): string {
  const v = value.trim();
  if (v.length > 2 * 1024 * 1024 || !hexBytes(v)) {
    throw badInput(
      argument,
      `${argument} must be a signed transaction in the node's hex encoding: 0x, the bytes, then the last 4 bytes of their sha256`,
    );
  }
  return v.toLowerCase();
}
