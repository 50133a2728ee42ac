import type { DocumentNode } from 'graphql';
import { createBytesLru } from '../cache/bytes-lru.js';

/**
 * Yoga's parse and parse-error caches, bounded in bytes (Yoga's own hold 1,024 entries whatever their
 * size). A document's AST and its source keep a few times its text; a document past the entry bound is
 * parsed again when it comes again instead of being kept. The validation cache is keyed by these
 * documents (weakly), so it is bounded with them.
 */
export interface DocumentCacheBytes {
  /** @default 32 MiB */
  documents?: number;
  /** @default 8 MiB */
  errors?: number;
}

/** What one cached parse holds per character of its text: the key, the source and the AST's strings. */
const DOCUMENT_BYTES_PER_CHAR = 4;

export function documentCaches({
  documents = 32 << 20,
  errors = 8 << 20,
}: DocumentCacheBytes = {}) {
  return {
    documentCache: createBytesLru<DocumentNode>({
      maxBytes: documents,
      sizeOf: (_doc, key) => key.length * (DOCUMENT_BYTES_PER_CHAR - 1) + 1_024,
    }),
    errorCache: createBytesLru<object>({
      maxBytes: errors,
      sizeOf: (_error, key) => key.length + 1_024,
    }),
  };
}
