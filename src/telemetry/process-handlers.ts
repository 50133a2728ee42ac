import type { Logger } from './logger.js';

/**
 * Process-level last resort: an unhandled promise rejection or an uncaught exception is logged (with
 * its stack) and counted, and the process keeps serving. A bug in one request's code path must not take
 * every other request down with it; the count (`gateway_process_errors_total`) is what alerts on it.
 * The supervisor (docker-compose `restart: unless-stopped`, a /live probe) covers what this cannot: a
 * hang, an out-of-memory kill.
 */
export type ProcessErrorKind = 'unhandledRejection' | 'uncaughtException';

export interface ProcessLike {
  on(event: 'unhandledRejection', listener: (reason: unknown) => void): unknown;
  on(event: 'uncaughtException', listener: (error: Error, origin?: string) => void): unknown;
  off(event: 'unhandledRejection', listener: (reason: unknown) => void): unknown;
  off(event: 'uncaughtException', listener: (error: Error, origin?: string) => void): unknown;
}

/** Installs both handlers; returns a function that removes them. */
export function installProcessHandlers(options: {
  logger: Logger;
  count: (kind: ProcessErrorKind) => void;
  target?: ProcessLike;
}): () => void {
  const target = options.target ?? process;
  const onRejection = (reason: unknown) => {
    options.count('unhandledRejection');
    options.logger.error(
      { kind: 'unhandledRejection', err: asError(reason) },
      'unhandled promise rejection; the process keeps running',
    );
  };
  const onException = (error: Error, origin?: string) => {
    options.count('uncaughtException');
    options.logger.error(
      { kind: 'uncaughtException', origin, err: asError(error) },
      'uncaught exception; the process keeps running',
    );
  };
  target.on('unhandledRejection', onRejection);
  target.on('uncaughtException', onException);
  return () => {
    target.off('unhandledRejection', onRejection);
    target.off('uncaughtException', onException);
  };
}

function asError(v: unknown): Error {
  return v instanceof Error ? v : new Error(`non-Error value: ${String(v).slice(0, 200)}`);
}
