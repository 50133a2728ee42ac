import type { ExecutionArgs, ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { gqlError } from '../errors.js';
import { type RequestScope, requestScopeOf } from '../telemetry/request-scope.js';
import type { ClientBudget } from './client-budget.js';
import type { CostOptions } from './cost.js';
import { budgetSpent, type Cost, isAsyncIterable, withCost } from './cost-answers.js';
import { createCostMemo } from './cost-memo.js';
import { grantAllowance, stopSpending, stopWhenGone } from './request-allowance.js';

export { ALLOWANCE_MARGIN, allowanceOf } from './request-allowance.js';

/**
 * Prices every operation in the upstream's compute units (CUs) before it runs, from the schema's cost
 * declarations (src/edge/cost.ts), on its variables as
 * execution coerces them, and reports the estimate in `extensions.cost` on every answer: a single
 * result, each part of an incremental (@defer / @stream) one, and each subscription event. Over
 * `MAX_QUERY_COST` it is refused (BAD_USER_INPUT, `reason: QUERY_TOO_COMPLEX`); otherwise the estimate
 * is charged to the client's per-minute budget, and a client over it is refused with RATE_LIMITED and
 * `retryAfterSec` (HTTP 429 with `retry-after`). Either way before any upstream call.
 * A subscription is priced and charged when it starts, then charged per delivered event (the event's
 * selection, run by then): the event that finds the budget spent is replaced by RATE_LIMITED and ends
 * the subscription, so no further event makes a call.
 * Envelop's `onExecute` / `onSubscribe`: every transport that runs the envelop pipeline is priced.
 *
 * The estimate is also a promise kept at run time: the request gets an allowance (`allowanceOf`: the
 * estimate times ALLOWANCE_MARGIN, never more than its client's budget has left) on its scope, from which
 * every upstream attempt made for it takes its price before it is sent (src/upstream/allowance.ts). A
 * subscription's events each get their own: the event's estimate is charged before the event (the charge at
 * subscribe pays for the first), the event runs within its allowance, and the charge is settled to what
 * the event spent. When the client goes (its connection closes before the answer is out), the scope is
 * marked and no further attempt is made for it.
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
  /** The Node response (Yoga's Node adapter and the fast path pass it): its early close is the client going. */
  res?: { writableFinished?: boolean; once(event: 'close', f: () => void): unknown };
}

type Client = string | readonly string[];
/** An admitted operation: its cost, and the client charged for it (none without a budget). */
interface Admitted {
  cost: Cost;
  client?: Client;
  /** What the client's budget had left after this charge, plus the charge (Infinity without a budget). */
  left: number;
  /** The scope's spending when the operation was admitted (a subscription's scope outlives its start). */
  mark: number;
}

export function useQueryCost(options: QueryCostOptions): Plugin {
  const price = createCostMemo(options.cost);
  const clientOf = (args: ExecutionArgs) => {
    const ctx = args.contextValue as ServerContext;
    return options.identify(ctx.request?.headers ?? new Headers(), ctx.req?.socket?.remoteAddress);
  };
  const rateLimited = (retryAfterSec: number, cost: Cost) =>
    budgetSpent(options.budget?.perMinute, retryAfterSec, cost);

  /**
   * Charges `cu` to the client: `left`, what its budget had left before the charge (Infinity without a
   * budget), when within it; else the refusal to answer.
   */
  const charge = async (
    client: Client,
    cu: number,
    cost: Cost,
  ): Promise<{ refused: ExecutionResult } | { left: number }> => {
    if (!options.budget || cu <= 0) return { left: Number.POSITIVE_INFINITY };
    const verdict = await options.budget.charge(client, cu);
    cost.budget = { perMinute: options.budget.perMinute, remaining: verdict.remaining };
    return verdict.ok
      ? { left: verdict.remaining + cu }
      : { refused: rateLimited(verdict.retryAfterSec, cost) };
  };

  /** The request's scope (none for a request no observer opened: it is then not metered). */
  const scopeOf = (args: ExecutionArgs): RequestScope | undefined => {
    const request = (args.contextValue as ServerContext).request;
    return request && requestScopeOf(request);
  };

  const metered = new WeakSet<RequestScope>();

  /** The operation's cost when it may run; otherwise the refusal, set as its result. */
  const admit = async (
    args: ExecutionArgs,
    stop: (result: ExecutionResult) => void,
  ): Promise<Admitted | undefined> => {
    const priced = price(
      args.schema,
      args.document,
      args.operationName,
      args.variableValues as Record<string, unknown> | undefined,
    );
    if (!priced.ok && priced.reason === 'too-deep') {
      stop({
        errors: [
          gqlError('BAD_USER_INPUT', 'The variables are nested too deep to read.', {
            reason: 'VARIABLES_TOO_DEEP',
            http: { status: 400 },
          }),
        ],
      });
      return undefined;
    }
    // Values that do not coerce: execution refuses them, naming them, before any resolver.
    // An estimate that is not a finite number (it never should be) is refused as too costly.
    const raw: unknown = priced.ok ? priced.cu : 0;
    const cu = typeof raw === 'number' && Number.isFinite(raw) ? raw : Number.POSITIVE_INFINITY;
    const cost: Cost = { estimatedCU: cu, limit: options.maxCost };
    if (cu > options.maxCost) {
      stop({
        errors: [
          gqlError(
            'BAD_USER_INPUT',
            `The query could cost up to ${cu} compute units upstream; the limit is ${options.maxCost}. Ask for fewer items (smaller first), fewer aliases or representations, or fewer nested lists.`,
            {
              reason: 'QUERY_TOO_COMPLEX',
              cost: cu,
              limit: options.maxCost,
              http: { status: 400 },
            },
          ),
        ],
        extensions: { cost },
      });
      return undefined;
    }
    const scope = scopeOf(args);
    const who = options.budget || scope ? clientOf(args) : undefined;
    const client = options.budget && cu > 0 ? who : undefined;
    const charged = client === undefined ? undefined : await charge(client, cu, cost);
    if (charged && 'refused' in charged) {
      stop(charged.refused);
      return undefined;
    }
    const left = charged?.left ?? Number.POSITIVE_INFINITY;
    if (scope) {
      // The plan's fair share (src/upstream/fair-share.ts) is kept per payer: the client's address (its last
      // identity), never a key it may invent per request for a fresh share.
      scope.payer ??= typeof who === 'string' ? who : who?.at(-1);
      // Operations of one batched request share its scope, and so the sum of their allowances.
      grantAllowance(scope, cu, left, true);
      if (!metered.has(scope)) {
        metered.add(scope);
        stopWhenGone((args.contextValue as ServerContext).res, scope);
      }
    }
    return { cost, client, left, mark: scope?.upstreamCu ?? 0 };
  };

  /** What the request's upstream calls have cost so far (0: all of it came from the caches). */
  const spentOf = (args: ExecutionArgs): number => scopeOf(args)?.upstreamCu ?? 0;
  /** The client's budget pays what was spent, not what was feared. */
  const settle = (admitted: Admitted, spent: number) => {
    if (admitted.client !== undefined)
      void options.budget?.settle(admitted.client, spent - admitted.cost.estimatedCU);
  };

  /**
   * Each event of a subscription pays for itself: its estimate is charged before it runs (the charge at
   * subscribe pays for the first), it runs within its own allowance, and the charge is settled to what it
   * spent once it is out. The first charge the budget refuses is delivered as RATE_LIMITED and ends the
   * stream, so no further event makes a call.
   * Not an async generator: its return() would wait for the next event, so a client leaving a quiet
   * subscription would keep the source (and its place) until one came.
   */
  function chargedEvents(
    events: AsyncIterable<ExecutionResult>,
    args: ExecutionArgs,
    admitted: Admitted,
  ): AsyncIterableIterator<ExecutionResult> {
    const { cost } = admitted;
    const it = events[Symbol.asyncIterator]();
    const scope = scopeOf(args);
    let over = false;
    // What the next event was charged, and the scope's spending when it was: settled once it is out.
    let prepaid = admitted.client === undefined ? 0 : cost.estimatedCU;
    let mark = admitted.mark;
    let left = admitted.left;
    let eventBudget = cost.budget;
    const settleEvent = () => {
      const spent = spentOf(args) - mark;
      mark += spent;
      if (admitted.client !== undefined && spent !== prepaid)
        void options.budget?.settle(admitted.client, spent - prepaid);
      prepaid = 0;
      return spent;
    };
    const done = { done: true, value: undefined } as IteratorResult<ExecutionResult>;
    const end = async () => {
      if (!over) {
        over = true;
        if (scope) stopSpending(scope);
        await it.return?.();
        settleEvent();
      }
      return done;
    };
    return {
      [Symbol.asyncIterator]() {
        return this;
      },
      async next() {
        if (over) return done;
        if (prepaid === 0 && admitted.client !== undefined) {
          const eventCost: Cost = { ...cost };
          const charged = await charge(admitted.client, cost.estimatedCU, eventCost);
          if ('refused' in charged) {
            await end();
            return { done: false, value: charged.refused };
          }
          prepaid = cost.estimatedCU;
          left = charged.left;
          eventBudget = eventCost.budget;
        }
        if (scope) grantAllowance(scope, cost.estimatedCU, left, false);
        const r = await it.next();
        if (r.done || over) {
          await end();
          return done;
        }
        const spentCu = settleEvent();
        return {
          done: false,
          value: withCost(r.value, { ...cost, budget: eventBudget, spentCu }),
        };
      },
      return: end,
      async throw(e: unknown) {
        await end();
        throw e;
      },
    };
  }

  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const admitted = await admit(args, setResultAndStopExecution);
      if (!admitted) return;
      const { cost } = admitted;
      return {
        onExecuteDone({ result, setResult }) {
          if (!isAsyncIterable(result)) {
            cost.spentCu = spentOf(args);
            settle(admitted, cost.spentCu);
            setResult(withCost(result as ExecutionResult, cost));
            return;
          }
          // Incremental delivery: every part says what the whole operation was priced at, and what
          // it has spent so far; the budget is settled once the last part is out.
          return {
            onNext({ result: part, setResult: setPart }) {
              setPart(withCost(part, { ...cost, spentCu: spentOf(args) }));
            },
            onEnd() {
              settle(admitted, spentOf(args));
            },
          };
        },
      };
    },
    async onSubscribe({ args, setResultAndStopExecution }) {
      const admitted = await admit(args, setResultAndStopExecution);
      if (!admitted) return;
      const { cost } = admitted;
      return {
        onSubscribeResult({ result, setResult }) {
          if (!isAsyncIterable(result)) {
            settle(admitted, spentOf(args) - admitted.mark);
            setResult(withCost(result as ExecutionResult, cost));
            return;
          }
          setResult(chargedEvents(result, args, admitted) as never);
        },
      };
    },
  };
}
