import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { misfitWhere } from './client-text.js';
import { UpstreamError } from './errors.js';
import type { JsonRpcClient } from './jsonrpc.js';
import type { UpstreamRequest } from './request.js';
import type { ResourceKind } from './resources.js';

/** A node's part of the cache key: its configured name and a short hash of its URL. */
export const nodeKeyOf = (name: string, url: string) =>
  `${name}@${createHash('sha256').update(url).digest('hex').slice(0, 8)}`;

/** How one node client's calls behave when they fail or answer outside their schema. */
export interface NodeCallPolicy {
  /** false: never retried (the call changes node state). */
  retry?: boolean;
  /** The error a failed call is answered with. */
  failed: (error: unknown) => unknown;
  /** The error message of an answer outside `schema`, given where it fails. */
  misfit: (where: string) => string;
}

/**
 * The request builder of the node `nodeKey`: one JSON-RPC call as an upstream request, sent through
 * `rpc`, its answer checked against `schema`.
 */
export const nodeRequests =
  (nodeKey: string) =>
  <S extends z.ZodType>(
    rpc: JsonRpcClient,
    resource: ResourceKind,
    method: string,
    params: unknown,
    schema: S,
    policy: NodeCallPolicy,
  ): UpstreamRequest<z.output<S>> => {
    const request = `POST ${rpc.path} ${method}`;
    return {
      upstream: 'node',
      resource,
      method: 'POST',
      path: rpc.path,
      // Node calls have no URL query: this part of the cache key carries the node and the JSON-RPC method.
      query: { node: nodeKey, rpc: method },
      body: params,
      async run(call) {
        let raw: unknown;
        try {
          raw = await rpc.call(
            method,
            params,
            policy.retry === undefined ? { call } : { retry: policy.retry, call },
          );
        } catch (e) {
          throw policy.failed(e);
        }
        const parsed = schema.safeParse(raw);
        if (parsed.success) return parsed.data;
        const where = misfitWhere(parsed.error.issues[0]);
        throw new UpstreamError('node', 'payload', {
          request,
          upstreamMessage: policy.misfit(where),
          cause: parsed.error,
        });
      },
    };
  };
