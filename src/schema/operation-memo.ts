import type { DocumentNode } from 'graphql';

/**
 * What a plugin keeps per parsed document and operation: Yoga hands back one DocumentNode per query
 * text, so a value worked out from the document alone is worked out once. Entries go with their
 * document (a WeakMap). `make` runs on the first request for a document and operation.
 */
export function perOperation<T>(): (
  document: DocumentNode,
  operationName: string | null | undefined,
  make: () => T,
) => T {
  const byDocument = new WeakMap<DocumentNode, Map<string, T>>();
  return (document, operationName, make) => {
    let byOperation = byDocument.get(document);
    if (!byOperation) {
      byOperation = new Map();
      byDocument.set(document, byOperation);
    }
    const key = operationName ?? '';
    let value = byOperation.get(key);
    if (value === undefined) {
      value = make();
      byOperation.set(key, value);
    }
    return value;
  };
}
