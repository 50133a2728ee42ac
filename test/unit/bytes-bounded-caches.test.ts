import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parse } from 'graphql';
import { compileQuery } from 'graphql-jit';
import { describe, expect, it } from 'vitest';
import { createBytesLru } from '../../src/cache/bytes-lru.js';
import { documentCaches } from '../../src/http/document-caches.js';
import { buildSchema } from '../../src/schema/index.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
/** The schema's own copy of graphql (Pothos and graphql-jit load it through require). */
const cjs = createRequire(import.meta.url)('graphql') as typeof import('graphql');

/** Issue 32, finding 5: caches a request can fill hold bytes, not entries of any size. */
describe('caches bounded in bytes', () => {
  it("Yoga's parse cache keeps no 900 KB document, and stays within its bytes for many small ones", () => {
    const { documentCache, errorCache } = documentCaches();
    for (let i = 0; i < 50; i++) {
      const text = `{ chain(id: "${i}-${'a'.repeat(900_000)}") { name } }`;
      documentCache.set(text, parse(text, { noLocation: true }));
      errorCache.set(text, new Error('x'));
    }
    expect(documentCache.size).toBe(0);
    expect(errorCache.size).toBe(0);
    for (let i = 0; i < 20_000; i++) {
      const text = `{ a${i}: chain(id: "${'b'.repeat(4_000)}") { name } }`;
      documentCache.set(text, parse(text, { noLocation: true }));
    }
    expect(documentCache.calculatedSize).toBeLessThanOrEqual(32 << 20);
    expect(documentCache.size).toBeGreaterThan(100);
  });

  it('a cached document is counted at no less than what it keeps: its AST, validation and compiled query', () => {
    const schema = buildSchema();
    const shapes: Record<string, (i: number) => string> = {
      'aliased blocks': (i) =>
        `{ ${Array.from({ length: 31 }, (_, k) => `a${k}: block(chainId: "43114", id: "${i * 100 + k}") { parent { number } }`).join(' ')} }`,
      'an operation with variables': (i) =>
        `query Q${i}($c: String!, $f: Int) { chain(id: $c) { blocks(first: $f) { edges { cursor node { number hash transactions(first: 2) { edges { node { hash from { address } } } } } } pageInfo { hasNextPage endCursor } } } }`,
      'a long string': (i) => `{ chain(id: "${i}-${'a'.repeat(20_000)}") { name } }`,
    };
    for (const [name, shape] of Object.entries(shapes)) {
      const kept: unknown[] = [];
      const { documentCache } = documentCaches({ documents: 1 << 30 });
      gc();
      const before = process.memoryUsage().heapUsed;
      for (let i = 0; i < 60; i++) {
        const text = shape(i);
        // As Yoga keeps it: the text as key, the parsed document (with locations), what hangs off it.
        const document = cjs.parse(text);
        cjs.validate(schema, document);
        kept.push(compileQuery(schema, document));
        documentCache.set(text, document);
      }
      gc();
      const held = process.memoryUsage().heapUsed - before;
      expect(kept.length + documentCache.size).toBe(120);
      expect(documentCache.calculatedSize, name).toBeGreaterThanOrEqual(held);
    }
  });

  it('a bytes LRU evicts by size', () => {
    const lru = createBytesLru<string>({ maxBytes: 10_000, maxEntryBytes: 5_000 });
    lru.set('x'.repeat(6_000), 'too big');
    expect(lru.size).toBe(0);
    for (let i = 0; i < 100; i++) lru.set(`${i}`.padEnd(1_000, '.'), 'v');
    expect(lru.calculatedSize).toBeLessThanOrEqual(10_000);
  });
});
