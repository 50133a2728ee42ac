import type { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/**
 * Off in production (FIELD_SUGGESTIONS): graphql-js ends a validation or coercion error with "Did you mean
 * …?", naming fields, types, arguments and enum values the schema has: with introspection off, a client
 * could map the schema from them. The error stays (its code, place and first sentence); the suggestion goes.
 * The same as graphql-armor's block-field-suggestions, which the project does not depend on.
 */
const SUGGESTION = /\s*Did you mean [^?]*\?/g;

const strip = (e: GraphQLError): void => {
  // Validation errors are graphql-js's own objects, made for this request: their message is theirs to change.
  if (e.message.includes('Did you mean')) e.message = e.message.replace(SUGGESTION, '');
};

export function useNoSuggestions(): Plugin {
  return {
    onValidate() {
      return ({ result }) => {
        for (const e of result) strip(e);
      };
    },
    onExecute() {
      return {
        onExecuteDone({ result }) {
          if (result && !(Symbol.asyncIterator in result))
            for (const e of result.errors ?? []) strip(e);
        },
      };
    },
  };
}
