import type { Server } from 'node:http';
import type { Config } from '../config.js';

/**
 * Server-level limits for the Node HTTP server: a whole request (headers and body) must arrive within
 * REQUEST_TIMEOUT_MS (slow-loris clients are cut off), headers within the same bound (at most 60 s), idle
 * keep-alive connections close after 5 s, and at most MAX_CONNECTIONS connections are open at once
 * (further ones are closed by Node on accept).
 */
export function applyServerLimits(
  server: Server,
  config: Pick<Config, 'requestTimeoutMs' | 'maxConnections'>,
): Server {
  server.requestTimeout = config.requestTimeoutMs;
  server.headersTimeout = Math.min(config.requestTimeoutMs, 60_000);
  server.keepAliveTimeout = 5_000;
  server.maxConnections = config.maxConnections;
  server.maxHeadersCount = 100;
  return server;
}
