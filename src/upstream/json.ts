import { parse } from 'lossless-json';

/**
 * Parses an upstream JSON body without losing integers. `JSON.parse` rounds an integer literal above
 * 2^53 to the nearest float (an L1 validator's uint64 `weight` or `remainingBalance` would silently change),
 * so a body that holds such a literal is parsed with `lossless-json`, which keeps those integers as their
 * exact decimal strings; everything else is a plain JS number exactly as `JSON.parse` gives it. The
 * contracts (zod) decide per field whether a decimal string is acceptable there (uint64 fields accept both
 * forms and carry a decimal string on; a timestamp does not, and fails its contract instead of rounding).
 * Bodies without a long integer literal (almost all) take the fast path.
 */
const LONG_INTEGER = /[-:[,\s]\d{16,}/;

export function parseUpstreamJson(text: string): unknown {
  if (!LONG_INTEGER.test(text)) return JSON.parse(text);
  return parse(text, null, (literal: string) =>
    /^-?\d+$/.test(literal) && !Number.isSafeInteger(Number(literal)) ? literal : Number(literal),
  );
}
