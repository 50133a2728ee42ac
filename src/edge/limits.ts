import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesPlugin } from '@escape.tech/graphql-armor-max-directives';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import type { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { gqlError } from '../errors.js';

/**
 * Shape limits on a document, from GraphQL Armor (well-kept envelop plugins): tokens (checked while
 * parsing, so a 3000-level nesting stops at the parser instead of overflowing a stack), aliases,
 * directives and depth, introspection included (`ofType { ofType { … } }` counts). Each refusal is
 * BAD_USER_INPUT with `reason: QUERY_TOO_COMPLEX`, the limit it broke, and no upstream call.
 */
export interface QueryLimits {
  maxTokens: number;
  maxAliases: number;
  maxDirectives: number;
  maxDepth: number;
}

/** Armor reports a plain GraphQLError; its onReject hook hands it to us first, to give it a code. */
const coded = (limit: string) => [
  (_ctx: unknown, error: GraphQLError) => {
    Object.assign(error.extensions as Record<string, unknown>, {
      code: 'BAD_USER_INPUT',
      reason: 'QUERY_TOO_COMPLEX',
      limit,
      http: { status: 400 },
    });
  },
];

export function queryLimitPlugins(limits: QueryLimits): Plugin[] {
  // graphql-js parses recursively: 2000 nested selections overflow its stack before the token limit is
  // reached, so nesting is measured on the text first (a linear scan, no recursion).
  const maxNesting = Math.max(64, limits.maxDepth * 3);
  return [
    {
      onParams({ params }) {
        const deep = valueDepth(params.variables, maxNesting);
        if (deep > maxNesting) {
          // graphql-js coerces variables recursively: thousands of levels overflow its stack (INTERNAL).
          throw gqlError(
            'BAD_USER_INPUT',
            `variables are nested deeper than ${maxNesting} levels.`,
            {
              reason: 'QUERY_TOO_COMPLEX',
              limit: 'variables-nesting',
              http: { status: 400 },
            },
          );
        }
        if (typeof params.query !== 'string') return;
        const nesting = maxBracketNesting(params.query, maxNesting);
        if (nesting > maxNesting) {
          throw gqlError(
            'BAD_USER_INPUT',
            `Syntax Error: nesting limit of ${maxNesting} exceeded.`,
            {
              reason: 'QUERY_TOO_COMPLEX',
              limit: 'nesting',
              http: { status: 400 },
            },
          );
        }
      },
    } satisfies Plugin,
    maxTokensPlugin({ n: limits.maxTokens, onReject: coded('tokens') }),
    maxAliasesPlugin({ n: limits.maxAliases, onReject: coded('aliases') }),
    maxDirectivesPlugin({ n: limits.maxDirectives, onReject: coded('directives') }),
    maxDepthPlugin({
      n: limits.maxDepth,
      ignoreIntrospection: false,
      flattenFragments: true,
      onReject: coded('depth'),
    }),
  ] as Plugin[];
}

/** The deepest `{`/`[`/`(` nesting of a GraphQL text, outside strings and comments; stops counting past `stopAt`. */
export function maxBracketNesting(text: string, stopAt = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x23 /* # */) {
      while (i < text.length && text.charCodeAt(i) !== 0x0a && text.charCodeAt(i) !== 0x0d) i++;
    } else if (c === 0x22 /* " */) {
      if (text.startsWith('"""', i)) {
        const end = text.indexOf('"""', i + 3);
        i = end < 0 ? text.length : end + 2;
      } else {
        for (
          i++;
          i < text.length && text.charCodeAt(i) !== 0x22 && text.charCodeAt(i) !== 0x0a;
          i++
        )
          if (text.charCodeAt(i) === 0x5c) i++;
      }
    } else if (c === 0x7b || c === 0x5b || c === 0x28) {
      if (++depth > max) {
        max = depth;
        if (max > stopAt) return max;
      }
    } else if (c === 0x7d || c === 0x5d || c === 0x29) depth--;
  }
  return max;
}

/** The nesting depth of a JSON value (objects and arrays), without recursion; stops past `stopAt`. */
export function valueDepth(value: unknown, stopAt = Number.POSITIVE_INFINITY): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d + 1 > max) {
      max = d + 1;
      if (max > stopAt) return max;
    }
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d + 1]);
  }
  return max;
}
