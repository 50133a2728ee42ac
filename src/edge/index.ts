import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import type { ValidationRule } from 'graphql';
import type { Plugin, YogaServerOptions } from 'graphql-yoga';
import { connectRedis, type RedisClient } from '../cache/redis-connect.js';
import type { Config } from '../config.js';
import { gqlError, YogaGraphQLError } from '../errors.js';
import { type ClientBudget, createClientBudget, createClientIdentifier } from './client-budget.js';
import { queryLimitPlugins } from './limits.js';
import { useNoSuggestions } from './no-suggestions.js';
import { MANIFEST_PATH } from './persisted.js';
import {
  createPersistedOperations,
  type PersistedOperations,
  persistedIdOf,
} from './persisted-files.js';
import { corsOptions, useHttpEdge } from './use-http-edge.js';
import { useQueryCost } from './use-query-cost.js';

/**
 * What stands between the open internet and the resolvers, in the order it acts: coded HTTP refusals
 * (415, subscriptions), CSRF prevention, the persisted-operations allowlist, introspection switched off,
 * document limits (tokens, aliases, directives, depth), then the cost in upstream calls and the client's
 * budget. Nothing here reaches an upstream: a refused request has made 0 calls.
 */
export const GRAPHQL_ENDPOINT = '/graphql';
/** A GET (or a simple POST) must carry one of these: a cross-site form or image cannot set them. */
export const CSRF_HEADERS = ['x-graphql-yoga-csrf', 'apollo-require-preflight'] as const;

export function edgeYogaOptions(
  config: Config,
): Pick<
  YogaServerOptions<Record<string, unknown>, Record<string, unknown>>,
  'cors' | 'maxRequestBodySize' | 'multipart' | 'batching'
> {
  return {
    cors: corsOptions(config.corsOrigins),
    // Enforced by useBodyLimit (src/edge/body-limit.ts, last of the gateway's plugins): the same errors,
    // without streaming every body through a counter.
    maxRequestBodySize: false,
    // No uploads here: a multipart body is 415, never parsed.
    multipart: false,
    batching: false,
  };
}

export function edgePlugins(
  config: Config,
  deps: {
    redis?: RedisClient;
    /** Items the smallest upstream page holds, when smaller than the routes' maximum (a test's). */
    upstreamPageSize?: number;
    /** Told each reload of the persisted operations' files (src/edge/persisted-files.ts). */
    onPersistedReload?: (
      outcome: { ok: true; size: number } | { ok: false; error: string },
    ) => void;
  } = {},
): {
  plugins: Plugin[];
  redis?: RedisClient;
  /** The persisted operations (`allow` and `only`). */
  persisted?: PersistedOperations;
  /** The clients' budgets (undefined: budgets off); subscriptions charge their own polls to it. */
  budget?: ClientBudget;
  close(): Promise<void>;
} {
  let ownRedis: RedisClient | undefined;
  let redis = deps.redis;
  // One connection for the clients' budgets and the plan-wide governor (src/upstream/governor.ts).
  const needed = config.clientBudgetPerMinute > 0 || config.upstreamCuPerMinute > 0;
  if (!redis && config.redisUrl && needed) {
    // Commands queue while connecting; the command timeout bounds every wait (then the insurance limiter
    // decides a budget, and the governor fails closed: it waits its own, longer, deadline).
    const commandTimeout =
      config.upstreamCuPerMinute > 0
        ? Math.max(config.redisCommandTimeoutMs, config.governor.ledgerTimeoutMs)
        : config.redisCommandTimeoutMs;
    const opts = { maxRetriesPerRequest: 1, commandTimeout };
    ownRedis = connectRedis(config.redisUrl, { cluster: config.redisCluster, options: opts });
    // Errors are absorbed by the budget's in-process insurance limiter; the cache reports Redis health.
    ownRedis.on('error', () => {});
    redis = ownRedis;
  }
  const budget =
    config.clientBudgetPerMinute > 0
      ? createClientBudget({ perMinute: config.clientBudgetPerMinute, redis })
      : undefined;
  // `only`: Yoga's persisted-operations plugin runs the allowlist and nothing else. `allow` and `off` are the APQ
  // plugin's (src/plugins/use-apq.ts: the allowlist's ids known without registration under `allow`).
  const persisted =
    config.persistedOperations === 'off'
      ? undefined
      : createPersistedOperations({
          files:
            config.persistedOperationsFiles.length > 0
              ? config.persistedOperationsFiles
              : [MANIFEST_PATH],
          onReload: deps.onPersistedReload,
        });
  const manifest = config.persistedOperations === 'only' ? persisted : undefined;
  const plugins: Plugin[] = [
    useHttpEdge({ graphqlEndpoint: GRAPHQL_ENDPOINT }),
    ...(config.csrfPrevention
      ? [
          useCSRFPrevention({
            requestHeaders: [...CSRF_HEADERS],
          }) as Plugin,
        ]
      : []),
    ...(manifest
      ? [
          usePersistedOperations({
            // A Map: a client's key ("constructor", "__proto__") never reaches a prototype.
            getPersistedOperation: (key: string) => manifest.get(key) ?? null,
            extractPersistedOperationId: (params) =>
              persistedIdOf(params as unknown as Record<string, unknown>),
            allowArbitraryOperations: false,
            customErrors: {
              notFound: {
                message: 'PersistedQueryNotFound',
                extensions: { code: 'PERSISTED_QUERY_NOT_FOUND', http: { status: 400 } },
              },
              persistedQueryOnly: {
                message: 'PersistedQueryOnly: this gateway runs only its persisted operations',
                extensions: { code: 'PERSISTED_QUERY_ONLY', http: { status: 400 } },
              },
              keyNotFound: {
                message:
                  'PersistedQueryKeyNotFound: send extensions.persistedQuery.sha256Hash (or documentId)',
                extensions: { code: 'PERSISTED_QUERY_NOT_FOUND', http: { status: 400 } },
              },
            },
          }) as Plugin,
        ]
      : []),
    ...(config.introspection ? [] : [useNoIntrospection()]),
    ...(config.fieldSuggestions ? [] : [useNoSuggestions()]),
    ...queryLimitPlugins({
      maxTokens: config.maxTokens,
      maxAliases: config.maxAliases,
      maxDirectives: config.maxDirectives,
      maxDepth: config.maxQueryDepth,
    }),
    useQueryCost({
      maxCost: config.maxQueryCost,
      cost: {
        maxFirst: config.maxPageSize,
        ...(deps.upstreamPageSize ? { pageSize: deps.upstreamPageSize } : {}),
      },
      budget,
      identify: createClientIdentifier(config.trustedProxies),
    }),
  ];
  return {
    plugins,
    redis,
    persisted,
    budget,
    close: async () => {
      persisted?.close();
      ownRedis?.disconnect();
    },
  };
}

/**
 * Introspection off on every transport. Yoga's own plugin decides per HTTP request (in `onRequestParse`),
 * which graphql-ws never reaches; the rule itself belongs to validation, which every operation passes.
 */
export function useNoIntrospection(): Plugin {
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(noIntrospection);
    },
  };
}

/**
 * graphql's NoSchemaIntrospectionCustomRule, by field name: it compares types by class, which fails
 * (INTERNAL) when the validator and this file load different copies of graphql-js; the error is made
 * with Yoga's copy, so Yoga answers it as any validation error.
 */
const noIntrospection: ValidationRule = (context) => ({
  Field(node) {
    const name = node.name.value;
    if (name === '__schema' || name === '__type')
      context.reportError(
        gqlError(
          'GRAPHQL_VALIDATION_FAILED',
          `GraphQL introspection has been disabled, but the requested query contained the field "${name}".`,
          {},
          { nodes: node },
          YogaGraphQLError,
        ),
      );
  },
});
