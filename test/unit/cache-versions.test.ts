import { describe, expect, it } from 'vitest';
import { ReadThrough } from '../../src/cache/read-through.js';
import { MemoryStore } from '../../src/cache/store.js';
import { testClock } from '../support/clock.js';

/**
 * Versioned entries (a live chain's head): one key per resource, the version kept in the entry. An entry
 * of another version is stale at once and is replaced, so new heads never add keys.
 */
function setup() {
  let t = 1_000_000;
  const store = new MemoryStore({ purgeEveryMs: 0 });
  const cache = new ReadThrough({ store, now: () => t });
  let loads = 0;
  const item = (version: string | undefined, value = `v@${version}`) => ({
    key: 'k',
    version,
    ttlMs: () => 60_000,
    load: async () => {
      loads += 1;
      return value;
    },
  });
  return {
    store,
    cache,
    item,
    loads: () => loads,
    advance: (ms: number) => {
      t += ms;
    },
  };
}

describe('versioned cache entries', () => {
  it('serve an entry only at its own version, and keep one key whatever the version', async () => {
    const s = setup();
    expect(await s.cache.get(s.item('h1'))).toBe('v@h1');
    expect(await s.cache.get(s.item('h1'))).toBe('v@h1');
    expect(s.loads()).toBe(1);
    // A new head: the entry is stale although its clock says fresh; the load replaces it.
    expect(await s.cache.get(s.item('h2'))).toBe('v@h2');
    expect(s.loads()).toBe(2);
    expect(await s.cache.get(s.item('h2'))).toBe('v@h2');
    expect(s.loads()).toBe(2);
    for (let h = 3; h < 20; h++) await s.cache.get(s.item(`h${h}`));
    expect(s.store.size).toBe(1);
  });

  it('never coalesce a load of one version with a request at another', async () => {
    const s = setup();
    const [a, b, c] = await Promise.all([
      s.cache.get(s.item('h1')),
      s.cache.get(s.item('h1')),
      s.cache.get(s.item('h2')),
    ]);
    expect([a, b, c]).toEqual(['v@h1', 'v@h1', 'v@h2']);
    expect(s.loads()).toBe(2);
  });

  it('an unversioned request of the same key keeps the usual TTL rules', async () => {
    const s = setup();
    await s.cache.get(s.item(undefined, 'plain'));
    expect(await s.cache.get(s.item(undefined, 'other'))).toBe('plain');
    s.advance(60_001);
    expect(await s.cache.get(s.item(undefined, 'other'))).toBe('other');
    expect(s.loads()).toBe(2);
  });

  it('a versioned entry read without a version (the chain no longer live) is not fresh', async () => {
    const s = setup();
    expect(await s.cache.get(s.item('h1'))).toBe('v@h1');
    // Its 60 s were set for head h1; read without a head, the class TTL applies: it is loaded again.
    expect(await s.cache.get(s.item(undefined, 'plain'))).toBe('plain');
    expect(s.loads()).toBe(2);
    // And an unversioned entry is not head h2's answer either.
    expect(await s.cache.get(s.item('h2'))).toBe('v@h2');
    expect(s.loads()).toBe(3);
  });

  it('a version still expires by its TTL (the bound when no head comes)', async () => {
    const s = setup();
    await s.cache.get(s.item('h1'));
    s.advance(60_001);
    await s.cache.get(s.item('h1'));
    expect(s.loads()).toBe(2);
  });
});

describe('MemoryStore sweep', () => {
  it('drops expired entries that are never read again', async () => {
    const clock = testClock();
    const store = new MemoryStore({ purgeEveryMs: 0, now: clock.now });
    await store.setMany([
      { key: 'short', value: 'x', ttlMs: 5 },
      { key: 'long', value: 'y', ttlMs: 60_000 },
    ]);
    clock.advance(20);
    expect(store.size).toBe(2);
    expect(store.purgeStale()).toBe(1);
    expect(store.size).toBe(1);
    expect(await store.getMany(['long'])).toEqual(['y']);
  });
});
