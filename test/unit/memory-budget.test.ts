import { describe, expect, it } from 'vitest';
import { memoryBudget } from '../../src/cache/create-store.js';
import { encodeEntry } from '../../src/cache/entry.js';
import { ReadThrough } from '../../src/cache/read-through.js';
import { entryBytes, MemoryStore } from '../../src/cache/store.js';
import { loadConfig } from '../../src/config.js';

const item = (key: string, load: () => Promise<unknown>) => ({ key, load, ttlMs: () => 60_000 });

describe('parsed values of cached entries (the warm path parses an entry once)', () => {
  it('a second read of the same entry hands back the same parsed value, with no upstream call', async () => {
    const cache = new ReadThrough({ store: new MemoryStore() });
    let loads = 0;
    const load = async () => ({ n: ++loads, items: [{ a: 1 }] });
    const first = await cache.get(item('k', load));
    const second = await cache.get(item('k', load));
    const third = await cache.get(item('k', load));
    expect(loads).toBe(1);
    expect(second).toEqual(first);
    expect(third).toBe(second); // parsed once, then shared
  });

  it('an entry rewritten in the store is parsed again (the memo follows the stored text)', async () => {
    const store = new MemoryStore();
    const cache = new ReadThrough({ store });
    await store.setMany([
      {
        key: 'k',
        value: encodeEntry({ freshUntil: Date.now() + 60_000, value: { x: 1 } }),
        ttlMs: 60_000,
      },
    ]);
    expect(await cache.get(item('k', async () => 0))).toEqual({ x: 1 });
    await store.setMany([
      {
        key: 'k',
        value: encodeEntry({ freshUntil: Date.now() + 60_000, value: { x: 2 } }),
        ttlMs: 60_000,
      },
    ]);
    expect(await cache.get(item('k', async () => 0))).toEqual({ x: 2 });
  });

  it('a caller that mutates a shared value is caught (the check runs under test)', async () => {
    const cache = new ReadThrough({ store: new MemoryStore(), verifySharedValues: true });
    await cache.get(item('k', async () => ({ list: [1, 2] })));
    const shared = (await cache.get(item('k', async () => 0))) as { list: number[] };
    shared.list.push(3);
    await expect(cache.get(item('k', async () => 0))).rejects.toThrow(/mutated/);
  });

  it('with the memo off every read parses its own copy', async () => {
    const cache = new ReadThrough({ store: new MemoryStore(), parsedMaxBytes: 0 });
    await cache.get(item('k', async () => ({ a: 1 })));
    const a = await cache.get(item('k', async () => 0));
    const b = await cache.get(item('k', async () => 0));
    expect(a).toEqual(b);
    expect(a).not.toBe(b);
  });
});

describe('the in-process cache is bounded in bytes (MEMORY_CACHE_MAX_BYTES)', () => {
  it('counts what an entry holds: one byte a Latin-1 character, two otherwise, plus bookkeeping', () => {
    expect(entryBytes('x'.repeat(1000), 'k'.repeat(10))).toBe(1010 + 200);
    expect(entryBytes(`${'x'.repeat(999)}€`, 'k'.repeat(10))).toBe(2000 + 10 + 200);
  });

  it('evicts the least recently used entries to stay within its bytes, whatever their number', async () => {
    const store = new MemoryStore({ maxEntries: 1_000_000, maxBytes: 1_000_000 });
    const value = 'v'.repeat(10_000);
    for (let i = 0; i < 500; i++) await store.setMany([{ key: `k${i}`, value, ttlMs: 60_000 }]);
    expect(store.bytes).toBeLessThanOrEqual(1_000_000);
    expect(store.size).toBeLessThan(100);
    const [oldest, newest] = await store.getMany(['k0', 'k499']);
    expect(oldest).toBeUndefined();
    expect(newest).toBe(value);
  });

  it('defaults to 128 MiB, split between the entries and their parsed values; a bad value stops start-up', () => {
    const c = loadConfig({});
    expect(c.memoryCacheMaxBytes).toBe(128 * 1024 * 1024);
    const b = memoryBudget(c);
    expect(b.store + b.parsed).toBe(c.memoryCacheMaxBytes);
    expect(loadConfig({ MEMORY_CACHE_MAX_BYTES: '2000000' }).memoryCacheMaxBytes).toBe(2_000_000);
    expect(() => loadConfig({ MEMORY_CACHE_MAX_BYTES: 'lots' })).toThrow(/MEMORY_CACHE_MAX_BYTES/);
  });
});
