import type { z } from 'zod';
import { type HttpClient, type Query, type RequestOptions, withCall } from './http.js';
import type { CallContext, Page, UpstreamRequest } from './request.js';

type Resource = UpstreamRequest<unknown>['resource'];
type KeyQuery = UpstreamRequest<unknown>['query'];

/**
 * How a Data API client describes its requests, once for all of them: a GET is its route, its
 * query in the cache key's form and how to run it; a list page also says where its items and next
 * token sit in the answer (the routes name their lists differently: `validators`, `blocks`,
 * `transactions`…). The transport (retries, timeouts, the contract check) is the `HttpClient`'s.
 */
export function dataApiBinding(http: HttpClient, opts: RequestOptions = {}) {
  const get = <T>(
    resource: Resource,
    path: string,
    query: KeyQuery,
    run: (call?: CallContext) => Promise<T>,
    pageToken?: string | null,
  ): UpstreamRequest<T> => ({
    upstream: 'data-api',
    resource,
    method: 'GET',
    path,
    query,
    pageToken,
    run,
    // Every Data API request has the same properties, in the same order, whether or not a route adds
    // its facts (`{ ...page(…), itemFacts }` keeps this shape): the cache-key and loader code that reads
    // them on every request stays monomorphic.
    variant: undefined,
    derived: undefined,
    facts: undefined,
    itemFacts: undefined,
  });

  /** One resource, checked against its contract. */
  const one = <S extends z.ZodType>(
    resource: Resource,
    path: string,
    schema: S,
    query: KeyQuery = {},
  ): UpstreamRequest<z.output<S>> =>
    get(resource, path, query, (call) => http.getJson(path, query, schema, withCall(opts, call)));

  /**
   * One page of a list. `items` picks the list out of the answer; `extra` keeps page-level fields
   * (chain info, block height). `wire` replaces query values as sent when they differ from the key's
   * form (a repeated parameter is sent as an array, kept joined in the key). An empty next token is
   * the end.
   */
  const page = <S extends z.ZodType<{ nextPageToken?: string | null }>, T, E extends object>(o: {
    resource: Resource;
    path: string;
    paging: { pageToken: string | null; pageSize: number };
    query?: KeyQuery;
    schema: S;
    items: (res: z.output<S>) => T[];
    extra?: (res: z.output<S>) => E;
    wire?: Query;
  }): UpstreamRequest<Page<T> & E> => {
    const { pageToken, pageSize } = o.paging;
    const query = { pageToken: pageToken ?? undefined, pageSize, ...o.query };
    return get(
      o.resource,
      o.path,
      query,
      async (call) => {
        const res = await http.getJson(
          o.path,
          { ...query, ...o.wire },
          o.schema,
          withCall(opts, call),
        );
        return {
          ...(o.extra?.(res) as E),
          items: o.items(res),
          nextPageToken: res.nextPageToken || null,
        };
      },
      pageToken,
    );
  };

  return { get, one, page };
}

export type DataApiBinding = ReturnType<typeof dataApiBinding>;
