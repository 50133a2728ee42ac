import { badInput } from '../errors.js';
import { bech32Decode, cb58Decode } from '../upstream/schemas/node-codec.js';
import type { GatewayNetwork } from '../upstream/schemas/primary.js';

/**
 * Checks on primary-network input, made before any upstream call; each failure is BAD_USER_INPUT naming
 * the argument. The encodings come from `upstream/schemas/node-codec.ts` (on `@scure/base` and
 * `@noble/hashes`):
 * - CB58 (Avalanche ids): base58 of the payload followed by the last 4 bytes of sha256(payload);
 * - node ids: `NodeID-` + CB58 of a 20-byte id;
 * - addresses: bech32 (BIP-173) with the network's prefix (`avax` / `fuji`), 20-byte payload,
 *   optionally preceded by the chain alias `P-` or `X-`.
 */

export { base58Decode, bech32Decode, cb58Decode } from '../upstream/schemas/node-codec.js';
export type { GatewayNetwork };

export const HRP: Record<GatewayNetwork, string> = { mainnet: 'avax', fuji: 'fuji' };

/** `mainnet`, `fuji` or `testnet` (normalized to `fuji`, so both names share cache entries and ids). */
export function parseNetwork(value: string, argument = 'network'): GatewayNetwork {
  const v = value.trim().toLowerCase();
  if (v === 'mainnet') return 'mainnet';
  if (v === 'fuji' || v === 'testnet') return 'fuji';
  throw badInput(
    argument,
    `${argument} must be one of mainnet, fuji, testnet (testnet and fuji are the same network)`,
  );
}

/** A CB58 id (transaction hash, blockchain, subnet or validation id): 32 bytes with a valid checksum. */
export function parseCb58Id(value: string, argument: string, what = 'id'): string {
  const v = value.trim();
  const payload = v.length <= 64 ? cb58Decode(v) : undefined;
  if (payload?.length !== 32) {
    throw badInput(
      argument,
      `${argument} must be a CB58 ${what} (base58 with a valid checksum, 32 bytes)`,
    );
  }
  return v;
}

/** `NodeID-` followed by the CB58 encoding of a 20-byte node id, checksum verified. */
export function parseNodeId(value: string, argument = 'nodeId'): string {
  const v = value.trim();
  const payload =
    v.startsWith('NodeID-') && v.length <= 64 ? cb58Decode(v.slice('NodeID-'.length)) : undefined;
  if (payload?.length !== 20) {
    throw badInput(
      argument,
      `${argument} must be a node id: "NodeID-" followed by a checksummed base58 id (e.g. NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg)`,
    );
  }
  return v;
}

/**
 * A P-Chain or X-Chain address of this network: bech32 with the network's prefix and a 20-byte payload,
 * optionally preceded by `P-` or `X-`. Normalized to lower case without the chain alias (the Data API
 * treats both forms alike), so equal addresses share cache entries.
 */
export function parsePrimaryAddress(
  value: string,
  network: GatewayNetwork,
  argument = 'addresses',
): string {
  const v = value.trim();
  const bare = /^[PX]-/i.test(v) ? v.slice(2) : v;
  const decoded = bech32Decode(bare);
  const hrp = HRP[network];
  if (!decoded || decoded.hrp !== hrp || decoded.bytes.length !== 20) {
    throw badInput(
      argument,
      `${argument}: "${v.slice(0, 100)}" is not a ${network} P/X-Chain address (bech32 starting with "${hrp}1", optionally prefixed "P-" or "X-", with a valid checksum)`,
    );
  }
  return bare.toLowerCase();
}

export function parsePrimaryAddresses(
  values: readonly string[],
  network: GatewayNetwork,
  argument = 'addresses',
  max = 64,
): string[] {
  if (values.length > max) throw badInput(argument, `${argument} takes at most ${max} addresses`);
  return [...new Set(values.map((a) => parsePrimaryAddress(a, network, argument)))];
}

/** An `addresses` argument naming a set of 1 to `max` addresses: checked, deduplicated and sorted. */
export function parseAddressSet(
  values: readonly string[],
  network: GatewayNetwork,
  max: number,
): string[] {
  if (values.length === 0) throw badInput('addresses', 'addresses must name at least one address');
  return parsePrimaryAddresses(values, network, 'addresses', max).sort();
}

export const addressSetDoc = (max: number) =>
  `Bech32 addresses of this network (avax1… / fuji1…, optionally P- or X-), 1 to ${max}.`;

// ——— numbers and hex ———

/** A Unix-seconds timestamp argument: a whole number ≥ 0. */
export function parseTimestampArg(
  value: number | null | undefined,
  argument: string,
): number | undefined {
  if (value == null) return undefined;
  if (!Number.isSafeInteger(value) || value < 0)
    throw badInput(argument, `${argument} must be a whole number of Unix seconds, 0 or more`);
  return value;
}

/** `startTimestamp` / `endTimestamp` arguments, each checked, the end not before the start. */
export function parseTimeRange(args: {
  startTimestamp?: number | null;
  endTimestamp?: number | null;
}): { startTimestamp: number | undefined; endTimestamp: number | undefined } {
  const startTimestamp = parseTimestampArg(args.startTimestamp, 'startTimestamp');
  const endTimestamp = parseTimestampArg(args.endTimestamp, 'endTimestamp');
  if (startTimestamp !== undefined && endTimestamp !== undefined && startTimestamp > endTimestamp) {
    throw badInput('endTimestamp', 'endTimestamp must not be before startTimestamp');
  }
  return { startTimestamp, endTimestamp };
}

/** Hex bytes, optionally 0x-prefixed, an even number of digits, not empty. Returned as given (trimmed). */
export function parseHexBytes(value: string, argument: string, maxBytes = 256 * 1024): string {
  const v = value.trim();
  const digits = v.startsWith('0x') || v.startsWith('0X') ? v.slice(2) : v;
  if (
    digits.length === 0 ||
    digits.length % 2 !== 0 ||
    digits.length > maxBytes * 2 ||
    !/^[0-9a-fA-F]+$/.test(digits)
  ) {
    throw badInput(
      argument,
      `${argument} must be hex-encoded bytes (an even number of hex digits, optionally prefixed with 0x)`,
    );
  }
  return v;
}

export function parsePercent(
  value: number | null | undefined,
  argument: string,
): number | undefined {
  if (value == null) return undefined;
  if (!Number.isInteger(value) || value < 0 || value > 100)
    throw badInput(argument, `${argument} must be an integer from 0 to 100`);
  return value;
}

/** A signing subnet id: CB58 (checksum verified) or 32 bytes of hex, as the aggregator accepts. */
export function parseSubnetIdHexOrCb58(value: string, argument: string): string {
  const v = value.trim();
  if (/^(0x)?[0-9a-fA-F]{64}$/.test(v)) return v;
  return parseCb58Id(v, argument, 'subnet id (or 32 bytes of hex)');
}

/**
 * A refetch key `<network>:<CB58 id>` (subnets, blockchains) → its checked parts; BAD_USER_INPUT
 * naming `argument` otherwise.
 */
export function parseNetworkScopedId(
  key: string,
  what: string,
  argument = 'id',
): { network: GatewayNetwork; id: string } {
  const sep = key.indexOf(':');
  if (sep < 0) throw badInput(argument, `${argument} must be <network>:<${what}>`);
  return {
    network: parseNetwork(key.slice(0, sep), argument),
    id: parseCb58Id(key.slice(sep + 1), argument, what),
  };
}
