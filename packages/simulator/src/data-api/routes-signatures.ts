import { createHash } from 'node:crypto';
import { cb58, cb58Decode } from '../world/index.js';
import { Created, type Ctx } from './ctx.js';
import { badRequest } from './errors.js';
import type { Route } from './router.js';

/**
 * The signature aggregator (the Data API's only POST). Signing is simulated: the answer is the
 * unsigned message followed by a deterministic BitSetSignature (type, signer bitset, 96-byte BLS
 * signature derived from the message), so the same request always gets the same signed message.
 */

const HEX = /^(0x)?[0-9a-fA-F]*$/;
const CB58 = /^[1-9A-HJ-NP-Za-km-z]+$/;

function sha(...parts: string[]): string {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest('hex');
}

function sign(unsignedHex: string): string {
  const sig = sha('bls-1', unsignedHex) + sha('bls-2', unsignedHex) + sha('bls-3', unsignedHex);
  return `${unsignedHex}00000000000000040fffffff${sig.slice(0, 192)}`;
}

function percent(errors: string[], name: string, v: unknown): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v))
    errors.push(`${name} must be an integer number`);
  else if (v < 0) errors.push(`${name} must not be less than 0`);
  else if (v > 100) errors.push(`${name} must not be greater than 100`);
  else return v;
  return undefined;
}

function validCb58(s: string): boolean {
  if (!CB58.test(s)) return false;
  try {
    return cb58(cb58Decode(s)) === s;
  } catch {
    return false;
  }
}

export const signatureRoutes: Route<Ctx>[] = [
  {
    method: 'POST',
    template: '/v1/signatureAggregator/:network/aggregateSignatures',
    handler: (ctx) => {
      ctx.network();
      let body: unknown;
      try {
        body = ctx.req.rawBody.trim() === '' ? {} : JSON.parse(ctx.req.rawBody);
      } catch (err) {
        throw badRequest(`Invalid JSON body: ${(err as Error).message}`);
      }
      if (typeof body !== 'object' || body === null || Array.isArray(body))
        throw badRequest('The request body must be a JSON object');
      const b = body as Record<string, unknown>;
      const errors: string[] = [];
      for (const k of ['message', 'justification'] as const) {
        const v = b[k];
        if (v !== undefined && (typeof v !== 'string' || !HEX.test(v)))
          errors.push(`${k} must be a hex string (optionally 0x-prefixed)`);
      }
      if (b.message === undefined && b.justification === undefined)
        errors.push('Either message or justification must be provided');
      const sid = b.signingSubnetId;
      if (sid !== undefined && (typeof sid !== 'string' || !(HEX.test(sid) || CB58.test(sid))))
        errors.push('signingSubnetId must be a hex or cb58 string');
      const q = percent(errors, 'quorumPercentage', b.quorumPercentage);
      const qb = percent(errors, 'quorumPercentageBuffer', b.quorumPercentageBuffer);
      if ((q ?? 67) + (qb ?? 0) > 100)
        errors.push('quorumPercentage plus quorumPercentageBuffer must be at most 100');
      const h = b.pChainHeight;
      if (h !== undefined && (typeof h !== 'number' || !Number.isInteger(h) || h < 0))
        errors.push('pChainHeight must be an integer number not less than 0');
      if (errors.length > 0) throw badRequest(...errors);
      const message =
        typeof b.message === 'string' && b.message.replace(/^0x/, '') !== ''
          ? b.message.replace(/^0x/, '').toLowerCase()
          : undefined;
      const unsigned =
        message ??
        `0000${sha('justification', String(b.justification))}${sha('payload', String(b.justification))}`;
      return new Created({ signedMessage: sign(unsigned) });
    },
  },
  {
    method: 'GET',
    template: '/v1/signatureAggregator/:network/aggregateSignatures/:txHash',
    handler: (ctx) => {
      ctx.network();
      const txHash = ctx.params.txHash!;
      if (!validCb58(txHash))
        throw badRequest(
          'txHash must be a primary network (P or X chain) transaction hash in cb58',
        );
      return new Created({
        signedMessage: sign(`0000${sha('warp-tx', txHash)}${sha('warp-payload', txHash)}`),
      });
    },
  },
];
