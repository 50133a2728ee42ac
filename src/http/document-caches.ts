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

/**
 * What one cached document keeps: its text three times (the key, the source, the AST's strings) and,
 * per token, its AST node, location and what hangs off the document for as long as it is kept (the
 * validation result, the compiled query of graphql-jit). Measured in test/unit/bytes-bounded-caches.test.ts.
 */
const BYTES_PER_CHAR = 3;
const BYTES_PER_TOKEN = 1_280;
const TOKEN = /[A-Za-z_]\w*|-?\d[\w.+-]*|"(?:[^"\\]|\\.)*"|[^\s,\w"]/g;

/** What a document of this text keeps while it is cached, in bytes (an upper bound, counted on the text). */
export function documentBytes(text: string): number {
  let tokens = 0;
  TOKEN.lastIndex = 0;
  while (TOKEN.exec(text)) tokens++;
  return text.length * BYTES_PER_CHAR + tokens * BYTES_PER_TOKEN + 1_024;
}

export function documentCaches({
  documents = 32 << 20,
  errors = 8 << 20,
}: DocumentCacheBytes = {}) {
  return {
    documentCache: createBytesLru<DocumentNode>({
      maxBytes: documents,
      sizeOf: (_doc, key) => documentBytes(key) - key.length,
    }),
    errorCache: createBytesLru<object>({
      maxBytes: errors,
      sizeOf: (_error, key) => key.length + 1_024,
    }),
  };
}
