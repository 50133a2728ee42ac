import { UpstreamError, type UpstreamName } from './errors.js';
import type { TransportError } from './transport.js';

/** The wait before retry `n` (1-based): 0.3 s doubling, full jitter, at most 2 s. */
export function backoffMs(n: number): number {
  return Math.min(2_000, Math.random() * 300 * 2 ** (n - 1));
}

export function transportFailure(
  name: UpstreamName,
  request: string,
  e: TransportError,
): UpstreamError {
  switch (e.kind) {
    case 'timeout':
      return new UpstreamError(name, 'timeout', { request, cause: e });
    case 'too-large':
    case 'encoding':
      return new UpstreamError(name, 'payload', { request, upstreamMessage: e.message, cause: e });
    default:
      return unreachable(name, request, e);
  }
}

export function unreachable(name: UpstreamName, request: string, cause: unknown): UpstreamError {
  return new UpstreamError(name, 'network', {
    request,
    cause,
    upstreamMessage: 'the upstream could not be reached',
  });
}
