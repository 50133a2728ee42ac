import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { UpstreamError } from './errors.js';
import type { JsonRpcClient } from './jsonrpc.js';
import type { UpstreamRequest } from './request.js';
import type { ResourceKind } from './resources.js';

/** A node's part of the cache key: its configured name and a short hash of its URL. */
export const nodeKeyOf = (name: string, url: string) =>
  `${name}@${createHash('sha256').update(url).digest('hex').slice(0, 8)}`;

export interface NodeCall<S extends z.ZodType> {
  rpc: JsonRpcClient;
  nodeKey: string;
  resource: ResourceKind;
  method: string;
  params: unknown;
  schema: S;
  /** false: never retried (the call changes node state). */
  retry?: boolean;
  /** The error a failed call is answered with. */
  failed: (error: unknown) => unknown;
  /** The error message of an answer outside `schema`, given where it fails. */
  misfit: (where: string) => string;
}

/** One JSON-RPC call as an upstream request: sent through `rpc`, its answer checked against `schema`. */
export function nodeRequest<S extends z.ZodType>(c: NodeCall<S>): UpstreamRequest<z.output<S>> {
  const request = `POST ${c.rpc.path} ${c.method}`;
  return {
    upstream: 'node',
    resource: c.resource,
    method: 'POST',
    path: c.rpc.path,
    // Node calls have no URL query: this part of the cache key carries the node and the JSON-RPC method.
    query: { node: c.nodeKey, rpc: c.method },
    body: c.params,
    async run(call) {
      let raw: unknown;
      try {
        raw = await c.rpc.call(
          c.method,
          c.params,
          c.retry === undefined ? { call } : { retry: c.retry, call },
        );
      } catch (e) {
        throw c.failed(e);
      }
      const parsed = c.schema.safeParse(raw);
      if (parsed.success) return parsed.data;
      const first = parsed.error.issues[0];
      const where = first
        ? `${first.path.join('.') || '(root)'}: ${first.message}`
        : 'unexpected shape';
      throw new UpstreamError('node', 'payload', {
        request,
        upstreamMessage: c.misfit(where),
        cause: parsed.error,
      });
    },
  };
}
