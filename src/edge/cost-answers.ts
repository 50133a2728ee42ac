import type { ExecutionResult } from 'graphql';
import { gqlError } from '../errors.js';

/** What the cost plugin (src/edge/use-query-cost.ts) puts in an answer: `extensions.cost`, or a refusal. */
export type Cost = Record<string, unknown> & {
  estimatedCU: number;
  limit: number;
  spentCu?: number;
};

export const isAsyncIterable = (v: unknown): v is AsyncIterable<ExecutionResult> =>
  typeof v === 'object' && v !== null && Symbol.asyncIterator in v;

export const withCost = (result: ExecutionResult, cost: Cost): ExecutionResult => ({
  ...result,
  extensions: { ...result.extensions, cost },
});

/** The client's per-minute budget of `perMinute` CUs is spent: RATE_LIMITED, HTTP 429 with `retry-after`. */
export const budgetSpent = (
  perMinute: number | undefined,
  retryAfterSec: number,
  cost: Cost,
): ExecutionResult => ({
  errors: [
    gqlError(
      'RATE_LIMITED',
      `This client's budget of ${perMinute} compute units a minute is spent; retry after ${retryAfterSec} s.`,
      {
        retryAfterSec,
        budget: 'client-per-minute',
        http: { status: 429, headers: { 'retry-after': String(retryAfterSec) } },
      },
    ),
  ],
  extensions: { cost },
});
