import { Kind } from 'graphql';
import { gqlError } from '../errors.js';
import { builder } from './builder.js';

/**
 * Amounts, gas and block numbers are decimal strings end to end (they overflow JS numbers);
 * timestamps are whole Unix seconds.
 */
const DECIMAL = /^-?\d+(\.\d+)?$/;

const parseBigDecimal = (v: unknown): string => {
  if (typeof v === 'string' && DECIMAL.test(v)) return v;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  throw gqlError('BAD_USER_INPUT', 'BigDecimal must be a decimal string such as "12345"');
};

builder.scalarType('BigDecimal', {
  description:
    'An exact decimal number carried as a string (amounts, gas, block numbers, nonces): never rounded to a float.',
  serialize: (v) => {
    if (typeof v === 'string' && DECIMAL.test(v)) return v;
    if (typeof v === 'bigint' || (typeof v === 'number' && Number.isSafeInteger(v)))
      return String(v);
    throw gqlError('INTERNAL', `BigDecimal cannot represent ${JSON.stringify(v)}`);
  },
  parseValue: parseBigDecimal,
  parseLiteral: (ast) => {
    if (ast.kind === Kind.STRING || ast.kind === Kind.INT) return parseBigDecimal(ast.value);
    throw gqlError('BAD_USER_INPUT', 'BigDecimal must be a decimal string');
  },
});

const parseTimestamp = (v: unknown): number => {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return v;
  if (typeof v === 'string' && /^\d+$/.test(v) && Number.isSafeInteger(Number(v))) return Number(v);
  throw gqlError('BAD_USER_INPUT', 'Timestamp must be a non-negative whole number of Unix seconds');
};

builder.scalarType('Timestamp', {
  description: 'A point in time as whole Unix seconds (UTC).',
  serialize: (v) => {
    if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
    throw gqlError('INTERNAL', `Timestamp cannot represent ${JSON.stringify(v)}`);
  },
  parseValue: parseTimestamp,
  parseLiteral: (ast) => {
    if (ast.kind === Kind.INT || ast.kind === Kind.STRING) return parseTimestamp(ast.value);
    throw gqlError('BAD_USER_INPUT', 'Timestamp must be Unix seconds');
  },
});

/** The ISO-8601 rendering that sits beside a Timestamp field. */
export const isoOf = (seconds: number): string => new Date(seconds * 1000).toISOString();
