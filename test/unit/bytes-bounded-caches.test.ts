import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { createBytesLru } from '../../src/cache/bytes-lru.js';
import { documentCaches } from '../../src/http/document-caches.js';

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

  it('a bytes LRU evicts by size', () => {
    const lru = createBytesLru<string>({ maxBytes: 10_000, maxEntryBytes: 5_000 });
    lru.set('x'.repeat(6_000), 'too big');
    expect(lru.size).toBe(0);
    for (let i = 0; i < 100; i++) lru.set(`${i}`.padEnd(1_000, '.'), 'v');
    expect(lru.calculatedSize).toBeLessThanOrEqual(10_000);
  });
});
