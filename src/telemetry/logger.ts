import { hostname } from 'node:os';
import { type DestinationStream, type Logger, pino } from 'pino';

export type { Logger } from 'pino';

import type { LogLevel } from '../config-shape.js';

export type { LogLevel } from '../config-shape.js';
/** The level of one line (every level but `silent`). */
export type LineLevel = Exclude<LogLevel, 'silent'>;

/**
 * The process's structured logger: one JSON object per line on stdout (pino), `level` as a word and
 * `time` as an ISO string. Nothing secret is ever passed to it; as a second guard, the header and key
 * fields a careless call could carry are censored.
 */
export function createLogger(options: {
  level: LogLevel;
  destination?: DestinationStream;
}): Logger {
  return pino(
    {
      level: options.level,
      base: { service: 'avalanche-graphql-gateway', pid: process.pid, hostname: hostname() },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: {
        paths: [
          'authorization',
          'headers',
          '*.authorization',
          '*.headers',
          'apiKey',
          '*.apiKey',
          'adminToken',
          '*.adminToken',
          'token',
          '*.token',
        ],
        censor: '[redacted]',
      },
    },
    options.destination,
  );
}

/**
 * Yoga's logger interface (`debug/info/warn/error(...args)`) over pino. Yoga logs at error every error
 * its mask replaces; `expected` picks those that are the client's or the upstream's, logged at debug.
 */
export function yogaLogger(logger: Logger, expected: (error: Error) => boolean = () => false) {
  const at =
    (wanted: LineLevel) =>
    (...args: unknown[]) => {
      const err = args.find((a): a is Error => a instanceof Error);
      const level = wanted === 'error' && err && expected(err) ? 'debug' : wanted;
      if (!logger.isLevelEnabled(level)) return;
      const text = args
        .filter((a) => !(a instanceof Error))
        .map((a) => (typeof a === 'string' ? a : safeJson(a)))
        .join(' ');
      if (err) logger[level]({ err, source: 'yoga' }, text || err.message);
      else logger[level]({ source: 'yoga' }, text);
    };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}
