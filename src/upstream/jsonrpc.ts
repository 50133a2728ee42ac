import DataLoader from 'dataloader';
import { z } from 'zod';
import type { RequestScope } from '../telemetry/request-scope.js';
import { traceRpc } from '../telemetry/spans.js';
import { UpstreamError } from './errors.js';
import { type HttpClient, withCall } from './http.js';
import { interpretNodeError } from './node-errors.js';
import { routeTemplate } from './observe.js';
import type { CallContext } from './request.js';

/**
 * JSON-RPC 2.0 over one endpoint. Two server styles live behind AvalancheGo:
 * - geth style (`/ext/bc/C/rpc`): accepts batches (a JSON array) and uses the standard codes
 *   (-32601 method not found, -32602 invalid params, 3 execution reverted...). Calls made in the same
 *   tick go out as one batch of at most `maxBatchSize` (40) — DataLoader does the tick batching.
 * - gorilla style (`/ext/info`, `/ext/admin`, `/ext/bc/X`, `/ext/bc/C/avax`...): one call per request
 *   (a JSON array is a parse error there), params as an object, and -32000 for EVERY application error,
 *   so the code says nothing and the message is what matters. Identical concurrent calls share one request.
 */
export type RpcStyle = 'geth' | 'gorilla';

export interface JsonRpcCallOptions {
  /** Retry transient failures; false for calls with side effects (issueTx, admin). @default true */
  retry?: boolean;
  /** Who the call is made for (its request, its cache load). */
  call?: CallContext;
}

export interface JsonRpcClient {
  readonly path: string;
  readonly style: RpcStyle;
  call<T = unknown>(method: string, params?: unknown, opts?: JsonRpcCallOptions): Promise<T>;
}

const rpcResponse = z.object({
  jsonrpc: z.literal('2.0').optional(),
  id: z.union([z.number(), z.string(), z.null()]).optional(),
  result: z.unknown().optional(),
  error: z
    .object({ code: z.number(), message: z.string(), data: z.unknown().optional() })
    .optional(),
});
type RpcResponse = z.infer<typeof rpcResponse>;

interface PendingCall {
  method: string;
  params: unknown;
  call?: CallContext;
}

/**
 * The context of one HTTP request carrying several calls of one request (a batch): its attempts count
 * toward that request, and a failed attempt is told to every call's cache load (all are retried).
 */
function batchContext(calls: readonly PendingCall[]): CallContext {
  const told = calls.flatMap((c) => (c.call?.onFailedAttempt ? [c.call.onFailedAttempt] : []));
  return {
    scope: calls.find((c) => c.call?.scope)?.call?.scope,
    onFailedAttempt: told.length
      ? () => {
          for (const f of told) f();
        }
      : undefined,
    // A batch is background only when every call in it is.
    background: calls.every((c) => c.call?.background === true || !c.call?.scope),
  };
}

export function createJsonRpcClient(options: {
  http: HttpClient;
  path: string;
  style: RpcStyle;
  maxBatchSize?: number;
}): JsonRpcClient {
  const { http, path, style } = options;
  let nextId = 1;

  const unwrap = (method: string, res: RpcResponse | undefined): unknown => {
    const request = `POST ${path} ${method}`;
    if (!res)
      throw new UpstreamError(http.name, 'payload', {
        request,
        upstreamMessage: 'the node answered no response for this call',
      });
    if (res.error) {
      throw new UpstreamError(http.name, 'rpc', {
        request,
        rpcCode: res.error.code,
        upstreamMessage: res.error.message,
        rpcData: res.error.data,
        meaning:
          http.name === 'node' ? interpretNodeError(res.error.code, res.error.message) : undefined,
      });
    }
    if (!('result' in res))
      throw new UpstreamError(http.name, 'payload', {
        request,
        upstreamMessage: 'the node answered neither result nor error',
      });
    return res.result;
  };

  if (style === 'geth') {
    /** One HTTP request for calls of one request (or of none): its answers in the calls' order. */
    const sendBatch = async (calls: readonly PendingCall[]): Promise<unknown[]> => {
      const ids = calls.map(() => nextId++);
      const body = calls.map((c, i) => ({
        jsonrpc: '2.0',
        id: ids[i],
        method: c.method,
        params: c.params ?? [],
      }));
      let answers: RpcResponse[];
      try {
        const raw = await traceRpc(
          routeTemplate(path),
          calls.map((c) => c.method),
          () =>
            http.postJson(
              path,
              body,
              z.union([z.array(rpcResponse), rpcResponse]),
              batchContext(calls),
            ),
        );
        // A whole-batch failure (e.g. parse error, batch too large) comes back as one object.
        if (!Array.isArray(raw)) {
          const err = unwrapBatchError(raw);
          return calls.map(() => err);
        }
        answers = raw;
      } catch (e) {
        return calls.map(() => (e instanceof Error ? e : new Error(String(e))));
      }
      const byId = new Map(answers.map((a) => [a.id, a]));
      return calls.map((c, i) => {
        try {
          return unwrap(c.method, byId.get(ids[i]));
        } catch (e) {
          return e as Error;
        }
      });
    };
    const loader = new DataLoader<PendingCall, unknown, string>(
      async (calls) => {
        // Each request pays for its own calls (its allowance, src/upstream/allowance.ts, and its
        // count of upstream calls): calls of several requests that met in one tick go as one batch per
        // request, never on another request's bill. Calls made for no request go together.
        const groups = new Map<RequestScope | undefined, number[]>();
        calls.forEach((c, i) => {
          const key = c.call?.scope;
          const group = groups.get(key);
          if (group) group.push(i);
          else groups.set(key, [i]);
        });
        const out: unknown[] = new Array(calls.length);
        await Promise.all(
          [...groups.values()].map(async (group) => {
            const answers = await sendBatch(group.map((i) => calls[i]!));
            group.forEach((i, j) => {
              out[i] = answers[j];
            });
          }),
        );
        return out;
      },
      {
        cache: false,
        maxBatchSize: options.maxBatchSize ?? 40,
        cacheKeyFn: (c) => JSON.stringify([c.method, c.params]),
      },
    );
    const unwrapBatchError = (res: RpcResponse): Error =>
      new UpstreamError(http.name, 'rpc', {
        request: `POST ${path} (batch)`,
        rpcCode: res.error?.code,
        upstreamMessage: res.error?.message ?? 'the node answered a batch with a single object',
        meaning:
          http.name === 'node' && res.error
            ? interpretNodeError(res.error.code, res.error.message)
            : undefined,
      });
    return {
      path,
      style,
      call: <T>(method: string, params?: unknown, opts: JsonRpcCallOptions = {}) =>
        // Side-effecting calls are sent alone, without retries.
        (opts.retry === false
          ? single(method, params, false, opts.call)
          : loader.load({ method, params, call: opts.call })) as Promise<T>,
    };
  }

  // gorilla: no batches; identical calls in flight at once share one request.
  const inFlight = new Map<string, Promise<unknown>>();
  async function single(
    method: string,
    params: unknown,
    retry: boolean,
    call: CallContext | undefined,
  ): Promise<unknown> {
    const body = {
      jsonrpc: '2.0',
      id: nextId++,
      method,
      params: params ?? (style === 'geth' ? [] : {}),
    };
    const res = await traceRpc(routeTemplate(path), [method], () =>
      http.postJson(path, body, rpcResponse, withCall({ retry }, call)),
    );
    return unwrap(method, res);
  }
  return {
    path,
    style,
    call: <T>(method: string, params?: unknown, opts: JsonRpcCallOptions = {}) => {
      if (opts.retry === false) return single(method, params, false, opts.call) as Promise<T>;
      const key = JSON.stringify([method, params ?? {}]);
      let p = inFlight.get(key);
      if (!p) {
        // Shared by identical calls in flight: made for the first of them.
        p = single(method, params, true, opts.call).finally(() => inFlight.delete(key));
        inFlight.set(key, p);
      }
      return p as Promise<T>;
    },
  };
}
