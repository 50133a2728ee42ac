import { type DocumentNode, type ExecutionArgs, getOperationAST, visit } from 'graphql';
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';
import type { Plugin } from 'graphql-yoga';
import type { Counter } from 'prom-client';
import { perOperation } from '../schema/operation-memo.js';

/**
 * Compiled execution (graphql-jit) for the operations it runs exactly as graphql-js does here; the
 * others go to graphql-js, untouched:
 * - mutations (graphql-jit goes on to the next root field after one fails in a non-null position,
 *   where graphql-js stops: a side effect would run that graphql-js never runs) and subscriptions;
 * - `@defer`/`@stream` (incremental delivery is graphql-js's);
 * - federation's `_entities`/`_service` (graphql-jit reports an entity's error at another path);
 * - a request whose variables do not coerce: graphql-jit answers only errors then, in its own words,
 *   and graphql-js runs the request again to answer with its own (which name the offending value);
 * - a document graphql-jit cannot compile.
 * A document is inspected and compiled once (by operation, per gateway), then kept as long as the
 * document is (Yoga caches parsed documents, so a repeated query text reuses both).
 */
type Compiled = CompiledQuery | null;

const plain = new WeakMap<DocumentNode, boolean>();

function isPlain(document: DocumentNode): boolean {
  let known = plain.get(document);
  if (known === undefined) {
    let ok = true;
    visit(document, {
      OperationDefinition(node) {
        if (node.operation !== 'query') ok = false;
      },
      Directive(node) {
        if (node.name.value === 'defer' || node.name.value === 'stream') ok = false;
      },
      Field(node) {
        if (node.name.value === '_entities' || node.name.value === '_service') ok = false;
      },
    });
    known = ok;
    plain.set(document, known);
  }
  return known;
}

/**
 * The compiled query a request may run with, or undefined for graphql-js. Each document's operation is
 * compiled once per selector: one per gateway, since a compiled query belongs to its schema.
 */
export function jitSelector(): (args: ExecutionArgs) => CompiledQuery | undefined {
  const compiledOf = perOperation<Compiled>();
  return (args) => {
    if (!isPlain(args.document)) return undefined;
    if (!getOperationAST(args.document, args.operationName)) return undefined;
    const query = compiledOf(args.document, args.operationName, () => {
      const result = compileQuery(args.schema, args.document, args.operationName ?? undefined);
      return isCompiledQuery(result) ? result : null;
    });
    return query ?? undefined;
  };
}

export const useJit = (options: { enabled: boolean; executions?: Counter<'executor'> }): Plugin => {
  const jitFor = jitSelector();
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      const executions = options.executions;
      const query = options.enabled ? jitFor(args) : undefined;
      if (!query) {
        executions?.inc({ executor: 'graphql-js' });
        return;
      }
      setExecuteFn(async (a) => {
        const result = await query.query(a.rootValue, a.contextValue, a.variableValues);
        // No `data` at all: the request never ran (its variables did not coerce).
        if ('data' in result) {
          executions?.inc({ executor: 'jit' });
          return result;
        }
        executions?.inc({ executor: 'graphql-js' });
        return executeFn(a);
      });
    },
  };
};
