import type { DocumentNode, GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { perOperation } from '../plugins/per-operation.js';
import { gqlError } from '../schema/errors.js';
import { requestScopeOf } from '../telemetry/request-scope.js';
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
  /** The client a request is charged to: every identity it presents (src/edge/client-budget.ts). */
  identify: (headers: Headers, peer: string | undefined) => string | readonly string[];
}

interface ServerContext {
  request?: Request;
  req?: { socket?: { remoteAddress?: string } };
}

/** Estimates kept per parsed document and operation (Yoga hands back the same document for the same text). */
const ESTIMATES_PER_OPERATION = 64;
/** Variable values longer than this as JSON are priced every time rather than kept as a key. */
const MAX_KEY_LENGTH = 4096;
const ABSENT = '\u0000absent';

/**
 * One operation's estimates, keyed by the values of the variables the estimate reads. The estimate
 * walks the document in a fixed order and reads a variable only where an argument or a directive
 * uses it, so which variables it reads depends only on the values of those read before: two requests
 * that agree on every variable in `reads` take the same walk and get the same estimate. A query's
 * other variables (a block id, an address) do not change its price, and are not part of the key.
 * `reads` grows when a walk reads a variable not seen before (the keys change: the estimates go).
 */
interface OperationEstimates {
  reads: string[];
  /** The estimate enumerated the variables itself: every variable is then part of the key. */
  all: boolean;
  byValues: Map<string, number>;
}

/**
 * The key of a request's values of `reads` (or of all its variables); undefined when not worth
 * keeping (large) or not writable (the raw variables arrive here before coercion: a hostile body may
 * nest them 100,000 deep).
 */
function valuesKey(
  e: OperationEstimates,
  variables: Record<string, unknown> | undefined,
): string | undefined {
  const v = variables ?? {};
  let json: string;
  try {
    json = JSON.stringify(e.all ? v : e.reads.map((k) => (k in v ? v[k] : ABSENT)));
  } catch {
    return undefined;
  }
  return json.length > MAX_KEY_LENGTH ? undefined : json;
}

export function useQueryCost(o: QueryCostOptions): Plugin {
  const estimatesOf = perOperation<OperationEstimates>();
  const priced = (
    schema: GraphQLSchema,
    document: DocumentNode,
    operationName: string | null | undefined,
    variables: Record<string, unknown> | undefined,
  ): number => {
    const e = estimatesOf(document, operationName, () => ({
      reads: [],
      all: false,
      byValues: new Map(),
    }));
    const key = valuesKey(e, variables);
    const known = key === undefined ? undefined : e.byValues.get(key);
    if (known !== undefined) return known;
    // Priced with the variables watched: which of them the estimate reads.
    const read = new Set<string>();
    let enumerated = false;
    const watched =
      variables &&
      new Proxy(variables, {
        get(t, k, r) {
          if (typeof k === 'string') read.add(k);
          return Reflect.get(t, k, r);
        },
        has(t, k) {
          if (typeof k === 'string') read.add(k);
          return Reflect.has(t, k);
        },
        ownKeys(t) {
          enumerated = true;
          return Reflect.ownKeys(t);
        },
      });
    const calls = estimateCost(schema, document, operationName, watched, o.cost).calls;
    const added = [...read].filter((k) => !e.reads.includes(k));
    if (added.length > 0 || (enumerated && !e.all)) {
      e.reads.push(...added);
      e.all ||= enumerated;
      e.byValues.clear();
    }
    const stored = valuesKey(e, variables);
    if (stored !== undefined) {
      if (e.byValues.size >= ESTIMATES_PER_OPERATION) e.byValues.clear();
      e.byValues.set(stored, calls);
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
      let client: string | readonly string[] | undefined;
      if (o.budget && calls > 0) {
        const ctx = args.contextValue as ServerContext;
        client = o.identify(ctx.request?.headers ?? new Headers(), ctx.req?.socket?.remoteAddress);
        const verdict = await o.budget.charge(client, calls);
        cost.budget = { perMinute: o.budget.perMinute, remaining: verdict.remaining };
        if (!verdict.ok) {
          setResultAndStopExecution({
            errors: [
              gqlError(
                'RATE_LIMITED',
                `This client's budget of ${o.budget.perMinute} compute units a minute is spent; retry after ${verdict.retryAfterSec} s.`,
                {
                  retryAfterSec: verdict.retryAfterSec,
                  budget: 'client-per-minute',
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
          // What this request's upstream calls actually cost (0: all of it came from the caches).
          const request = (args.contextValue as ServerContext).request;
          const spent = (request && requestScopeOf(request)?.upstreamCu) ?? 0;
          cost.spentCu = spent;
          // The client's budget pays what was spent, not what was feared.
          if (client !== undefined) void o.budget?.settle(client, spent - calls);
          setResult({ ...result, extensions: { ...result.extensions, cost } });
        },
      };
    },
  };
}
