import type { Plugin } from 'graphql-yoga';
import { gqlError } from '../schema/errors.js';
import type { ClientBudget } from './client-budget.js';
import { type CostOptions, estimateCost } from './cost.js';

/**
 * Prices every operation in upstream calls before it runs (src/edge/cost.ts) and reports the estimate in
 * `extensions.cost`. Over `MAX_QUERY_COST` it is refused (BAD_USER_INPUT, `reason: QUERY_TOO_COMPLEX`);
 * otherwise the estimate is charged to the client's per-minute budget, and a client over it is refused
 * with RATE_LIMITED and `retryAfterSec` (HTTP 429 with `retry-after`). Either way before any upstream call.
 */
export interface QueryCostOptions {
  maxCost: number;
  cost: Partial<CostOptions>;
  budget?: ClientBudget;
  /** The client a request is charged to. */
  identify: (headers: Headers, peer: string | undefined) => string;
}

interface ServerContext {
  request?: Request;
  req?: { socket?: { remoteAddress?: string } };
}

export function useQueryCost(o: QueryCostOptions): Plugin {
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const { calls } = estimateCost(
        args.schema,
        args.document,
        args.operationName,
        args.variableValues as Record<string, unknown> | undefined,
        o.cost,
      );
      const cost: Record<string, unknown> = { estimatedCalls: calls, limit: o.maxCost };
      if (calls > o.maxCost) {
        setResultAndStopExecution({
          errors: [
            gqlError(
              'BAD_USER_INPUT',
              `The query could make up to ${calls} upstream calls; the limit is ${o.maxCost}. Ask for fewer items (smaller first), fewer aliases or representations, or fewer nested lists.`,
              {
                reason: 'QUERY_TOO_COMPLEX',
                cost: calls,
                limit: o.maxCost,
                http: { status: 400 },
              },
            ),
          ],
          extensions: { cost },
        });
        return;
      }
      if (o.budget && calls > 0) {
        const ctx = args.contextValue as ServerContext;
        const client = o.identify(
          ctx.request?.headers ?? new Headers(),
          ctx.req?.socket?.remoteAddress,
        );
        const verdict = await o.budget.charge(client, calls);
        cost.budget = { perMinute: o.budget.perMinute, remaining: verdict.remaining };
        if (!verdict.ok) {
          setResultAndStopExecution({
            errors: [
              gqlError(
                'RATE_LIMITED',
                `This client's budget of ${o.budget.perMinute} upstream calls a minute is spent; retry after ${verdict.retryAfterSec} s.`,
                {
                  retryAfterSec: verdict.retryAfterSec,
                  http: { status: 429, headers: { 'retry-after': String(verdict.retryAfterSec) } },
                },
              ),
            ],
            extensions: { cost },
          });
          return;
        }
      }
      return {
        onExecuteDone({ result, setResult }) {
          if (!result || Symbol.asyncIterator in result) return;
          setResult({ ...result, extensions: { ...result.extensions, cost } });
        },
      };
    },
  };
}
