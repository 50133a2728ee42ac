import type { DocumentNode, GraphQLSchema } from 'graphql';
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

/** Estimates kept per parsed document (Yoga hands back the same document for the same text). */
const ESTIMATES_PER_DOCUMENT = 64;
/** Variables longer than this as JSON are priced every time rather than kept as a key. */
const MAX_KEY_LENGTH = 4096;

/**
 * The memo key of an operation's variables; undefined when they are not worth keeping (large) or
 * cannot be written (the raw variables arrive here before coercion: a hostile body may nest them
 * 100,000 deep).
 */
function memoKey(
  operationName: string | null | undefined,
  variables: Record<string, unknown> | undefined,
): string | undefined {
  let json: string;
  try {
    json = JSON.stringify(variables ?? {});
  } catch {
    return undefined;
  }
  return json.length > MAX_KEY_LENGTH ? undefined : `${operationName ?? ''}\0${json}`;
}

export function useQueryCost(o: QueryCostOptions): Plugin {
  // A cost is a function of the document, the operation and the variables (the schema and options
  // are this plugin's): a repeated query is priced once.
  const estimates = new WeakMap<DocumentNode, Map<string, number>>();
  const priced = (
    schema: GraphQLSchema,
    document: DocumentNode,
    operationName: string | null | undefined,
    variables: Record<string, unknown> | undefined,
  ): number => {
    let byArgs = estimates.get(document);
    if (!byArgs) {
      byArgs = new Map();
      estimates.set(document, byArgs);
    }
    const key = memoKey(operationName, variables);
    let calls = key === undefined ? undefined : byArgs.get(key);
    if (calls === undefined) {
      calls = estimateCost(schema, document, operationName, variables, o.cost).calls;
      if (key !== undefined) {
        if (byArgs.size >= ESTIMATES_PER_DOCUMENT) byArgs.clear();
        byArgs.set(key, calls);
      }
    }
    return calls;
  };
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const calls = priced(
        args.schema,
        args.document,
        args.operationName,
        args.variableValues as Record<string, unknown> | undefined,
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
