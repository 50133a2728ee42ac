import type { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { recode } from '../errors.js';

/**
 * Every error a client sees carries `extensions.code`. Yoga codes parse and validation errors, and
 * maskError codes resolver errors; what is left are variable-coercion errors (a variable of the wrong
 * type, an unknown enum value), raised before any resolver runs: those are the client's input.
 */
export function useErrorCodes(): Plugin {
  return {
    onExecute() {
      return {
        onExecuteDone({ result, setResult }) {
          // Resolver errors always have a path: they are left to maskError, which runs after this.
          const uncoded = (e: GraphQLError) => !e.extensions?.code && e.path === undefined;
          if (!result || Symbol.asyncIterator in result || !result.errors?.some(uncoded)) return;
          setResult({
            ...result,
            errors: result.errors.map((e) =>
              !uncoded(e) ? e : recode(e, { code: 'BAD_USER_INPUT' }),
            ),
          });
        },
      };
    },
  };
}
