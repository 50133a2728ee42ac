import type { ExecutionArgs, ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { gqlError } from '../errors.js';
import { requestScopeOf } from '../telemetry/request-scope.js';
import type { ClientBudget } from './client-budget.js';
import type { CostOptions } from './cost.js';
import { createCostMemo } from './cost-memo.js';

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

type Cost = Record<string, unknown> & { estimatedCU: number; limit: number; spentCu?: number };
type Client = string | readonly string[];
/** An admitted operation: its cost, and the client charged for it (none without a budget). */
interface Admitted {
  cost: Cost;
  client?: Client;
}

const isAsyncIterable = (v: unknown): v is AsyncIterable<ExecutionResult> =>
  typeof v === 'object' && v !== null && Symbol.asyncIterator in v;

const withCost = (result: ExecutionResult, cost: Cost): ExecutionResult => ({
  ...result,
  extensions: { ...result.extensions, cost },
});

export function useQueryCost(options: QueryCostOptions): Plugin {
  const price = createCostMemo(options.cost);
  const clientOf = (args: ExecutionArgs) => {
    const ctx = args.contextValue as ServerContext;
    return options.identify(ctx.request?.headers ?? new Headers(), ctx.req?.socket?.remoteAddress);
  };
  const rateLimited = (retryAfterSec: number, cost: Cost): ExecutionResult => ({
    errors: [
      gqlError(
        'RATE_LIMITED',
        `This client's budget of ${options.budget?.perMinute} compute units a minute is spent; retry after ${retryAfterSec} s.`,
        {
          retryAfterSec,
          budget: 'client-per-minute',
          http: { status: 429, headers: { 'retry-after': String(retryAfterSec) } },
        },
      ),
    ],
    extensions: { cost },
  });

  /** Charges `cu` to the client: undefined when within its budget, else the refusal to answer. */
  const charge = async (
    client: Client,
    cu: number,
    cost: Cost,
  ): Promise<ExecutionResult | undefined> => {
    if (!options.budget || cu <= 0) return undefined;
    const verdict = await options.budget.charge(client, cu);
    cost.budget = { perMinute: options.budget.perMinute, remaining: verdict.remaining };
    return verdict.ok ? undefined : rateLimited(verdict.retryAfterSec, cost);
  };

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
    const cu = priced.ok ? priced.cu : 0;
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
    const request = (args.contextValue as ServerContext).request;
    const scope = request && requestScopeOf(request);
    const who = (options.budget && cu > 0) || scope ? clientOf(args) : undefined;
    // The plan's fair share (src/upstream/fair-share.ts) is kept per payer: the client's first identity.
    if (scope && who !== undefined) scope.payer ??= typeof who === 'string' ? who : who[0];
    const client = options.budget && cu > 0 ? who : undefined;
    const refused = client === undefined ? undefined : await charge(client, cu, cost);
    if (refused) {
      stop(refused);
      return undefined;
    }
    return { cost, client };
  };

  /** What the request's upstream calls have cost so far (0: all of it came from the caches). */
  const spentOf = (args: ExecutionArgs): number => {
    const request = (args.contextValue as ServerContext).request;
    return (request && requestScopeOf(request)?.upstreamCu) ?? 0;
  };
  /** The client's budget pays what was spent, not what was feared. */
  const settle = (admitted: Admitted, spent: number) => {
    if (admitted.client !== undefined)
      void options.budget?.settle(admitted.client, spent - admitted.cost.estimatedCU);
  };

  /**
   * Each event charged before it is delivered; the first one over budget is refused and ends the stream.
   * Not an async generator: its return() would wait for the next event, so a client leaving a quiet
   * subscription would keep the source (and its place) until one came.
   */
  function chargedEvents(
    events: AsyncIterable<ExecutionResult>,
    args: ExecutionArgs,
    cost: Cost,
  ): AsyncIterableIterator<ExecutionResult> {
    const it = events[Symbol.asyncIterator]();
    let over = false;
    const done = { done: true, value: undefined } as IteratorResult<ExecutionResult>;
    const end = async () => {
      if (!over) {
        over = true;
        await it.return?.();
      }
      return done;
    };
    return {
      [Symbol.asyncIterator]() {
        return this;
      },
      async next() {
        if (over) return done;
        const r = await it.next();
        if (r.done || over) {
          over = true;
          return done;
        }
        const eventCost: Cost = { ...cost };
        const refused = await charge(clientOf(args), cost.estimatedCU, eventCost);
        if (refused) {
          await end();
          return { done: false, value: refused };
        }
        return { done: false, value: withCost(r.value, eventCost) };
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
            setResult(withCost(result as ExecutionResult, cost));
            return;
          }
          setResult(chargedEvents(result, args, cost) as never);
        },
      };
    },
  };
}
