import type { DocumentNode, GraphQLSchema, OperationDefinitionNode } from 'graphql';
import { createBytesLru } from '../cache/bytes-lru.js';
import { perOperation } from '../schema/operation-memo.js';
import { pickOperation } from '../schema/selections.js';
import { coerceVariables } from './coerce-variables.js';
import { type CostOptions, estimateCoerced, pricedVariables } from './cost.js';

/** What an operation is priced at: its compute units, or why it cannot be priced. */
export type Priced =
  | { ok: true; cu: number }
  /** `invalid`: values execution refuses itself, naming them, before any resolver (0 calls). */
  | { ok: false; reason: 'invalid' | 'too-deep' | 'no-operation' };

/**
 * All kept estimates, in bytes: a request chooses its documents and its values, so a count per document
 * would let many documents each keep their share. Keyed by the operation's id and the values.
 */
const DEFAULT_MAX_BYTES = 4 << 20;
/** Priced variables' values longer than this as JSON are priced every time rather than kept as a key. */
const MAX_KEY_LENGTH = 4096;
const ABSENT = '\u0000absent';

interface OperationEstimates {
  /** Names this document and operation in the shared store. */
  id: number;
  operation: OperationDefinitionNode | undefined;
  /** The variables the price may depend on, from the document alone (src/edge/cost.ts). */
  priced: { sized: string[]; resumed: string[] };
}

/**
 * Prices operations on their coerced variables, keeping each estimate under what cannot vary for it:
 * the document, the operation and the coerced values of the variables its price reads. Another
 * request's other variables (a block id, an address) never change a kept price; its sizes always do.
 */
export function createCostMemo(
  options: Partial<CostOptions>,
  maxBytes = DEFAULT_MAX_BYTES,
): (
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown> | null | undefined,
) => Priced {
  const estimatesOf = perOperation<OperationEstimates>();
  const kept = createBytesLru<number>({ maxBytes, maxEntryBytes: MAX_KEY_LENGTH + 64 });
  let operations = 0;
  return (schema, document, operationName, variables) => {
    const e = estimatesOf(document, operationName, () => ({
      id: operations++,
      operation: pickOperation(document, operationName),
      priced: pricedVariables(schema, document),
    }));
    if (!e.operation) return { ok: false, reason: 'no-operation' };
    const coerced = coerceVariables(schema, e.operation, variables);
    if (!coerced.ok) return coerced;
    const values = keyOf(e.priced, coerced.values);
    const key = values === undefined ? undefined : `${e.id}:${values}`;
    const known = key === undefined ? undefined : kept.get(key);
    if (known !== undefined) return { ok: true, cu: known };
    const cu = estimateCoerced(schema, document, e.operation, coerced.values, options).cu;
    if (key !== undefined) kept.set(key, cu);
    return { ok: true, cu };
  };
}

function keyOf(
  names: { sized: string[]; resumed: string[] },
  values: Record<string, unknown>,
): string | undefined {
  let json: string;
  try {
    json = JSON.stringify([
      ...names.sized.map((k) => (k in values ? values[k] : ABSENT)),
      ...names.resumed.map((k) => values[k] !== undefined && values[k] !== null),
    ]);
  } catch {
    return undefined;
  }
  return json.length > MAX_KEY_LENGTH ? undefined : json;
}
