import { loadConfig } from '../../src/config.js';

/** The upstream HTTP client's limits as the default configuration sets them (a test overrides one). */
export function configuredHttpLimits(): {
  timeoutMs: number;
  retries: number;
  maxRetryAfterMs: number;
  maxBodyBytes: number;
} {
  const config = loadConfig({});
  return {
    timeoutMs: config.upstreamTimeoutMs,
    retries: config.upstreamRetries,
    maxRetryAfterMs: config.maxRetryAfterMs,
    maxBodyBytes: config.upstreamMaxBodyBytes,
  };
}
