import { z } from 'zod';

/**
 * Number shapes of the node's JSON-RPC answers. AvalancheGo's gorilla services encode uint64/uint32/float64
 * as JSON strings (`"networkID": "1"`); a few fields are plain JSON numbers (`numPeers` in older releases,
 * amounts in the `json` tx encoding). Both are accepted; uint64 values stay decimal strings end to end so
 * they never round through a float. The EVM endpoint encodes quantities as 0x-hex.
 */
const DECIMAL_UINT = /^(0|[1-9]\d*)$/;

/** A uint64 as an exact decimal string. */
export const u64 = z
  .union([
    z.string().regex(DECIMAL_UINT, 'expected a decimal integer string'),
    z
      .number()
      .int()
      .nonnegative()
      .refine(Number.isSafeInteger, 'integer beyond 2^53 cannot be exact'),
  ])
  .transform(String);

/** A small unsigned integer (uint32 and below) as a JS number. */
export const u32 = z
  .union([
    z.string().regex(DECIMAL_UINT, 'expected a decimal integer string').transform(Number),
    z.number().int().nonnegative(),
  ])
  .pipe(z.number().max(0xffffffff));

/** A float64 the node prints as a decimal string (`"99.0000"`); kept exactly as printed. */
export const decimalString = z
  .union([z.string().regex(/^-?\d+(\.\d+)?$/, 'expected a decimal string'), z.number()])
  .transform(String);

/** An EVM quantity (`0x1a`) as an exact decimal string. */
export const hexQuantity = z
  .string()
  .regex(/^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$/, 'expected a 0x-hex quantity')
  .transform((h) => BigInt(h).toString());

/** Node ids are `NodeID-` + CB58 of 20 bytes. */
export const nodeIdString = z.string().startsWith('NodeID-');

/** Results the node answers as an empty object (`{}`): profilers, aliases, log levels. */
export const emptyResult = z
  .object({})
  .nullable()
  .transform(() => ({ ok: true as const }));
