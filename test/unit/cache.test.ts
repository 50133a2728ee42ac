import { describe, expect, it } from 'vitest';
import { KEY_PREFIX, keys } from '../../src/cache/keys.js';
import { createCachePolicy, DEFAULT_TTL_MS } from '../../src/cache/policy.js';
import { ReadThrough } from '../../src/cache/read-through.js';
import { MemoryStore } from '../../src/cache/store.js';

describe('cache keys', () => {
  it('are versioned and independent of query parameter order', () => {
    const a = keys.request({
      upstream: 'data-api',
      method: 'GET',
      path: '/v1/chains/43114/blocks',
      query: { pageSize: 100, pageToken: 'x' },
    });
    const b = keys.request({
      upstream: 'data-api',
      method: 'GET',
      path: '/v1/chains/43114/blocks',
      query: { pageToken: 'x', pageSize: 100 },
    });
    expect(a).toBe(b);
    expect(a.startsWith(`${KEY_PREFIX}:data-api:GET /v1/chains/43114/blocks?`)).toBe(true);
  });

  it('drop unset parameters and hash long ones to keep keys short', () => {
    const k = keys.request({
      upstream: 'data-api',
      method: 'GET',
      path: '/p',
      query: { a: undefined, b: null },
    });
    expect(k).toBe(`${KEY_PREFIX}:data-api:GET /p`);
    const long = keys.request({
      upstream: 'data-api',
      method: 'GET',
      path: `/p/${'x'.repeat(400)}`,
      query: {},
    });
    expect(long.length).toBeLessThan(100);
  });
});

describe('cache policy', () => {
  it('keeps final data long, head pages about a block time, token pages for the token life', () => {
    const p = createCachePolicy();
    expect(p.ttlFor('data.block').ttlMs).toBe(DEFAULT_TTL_MS.immutable);
    expect(p.ttlFor('data.latestBlocks').ttlMs).toBe(DEFAULT_TTL_MS.head);
    expect(p.ttlFor('data.latestBlocks', { pageToken: 't' }).ttlMs).toBe(DEFAULT_TTL_MS.tokenPage);
    expect(p.ttlFor('data.latestBlocks', { pageToken: 't', lastPage: true }).ttlMs).toBe(
      DEFAULT_TTL_MS.head,
    );
    expect(p.notFound().ttlMs).toBeLessThanOrEqual(10_000);
  });
});

describe('ReadThrough', () => {
  it('coalesces concurrent misses for one key into one load, then serves hits', async () => {
    const rt = new ReadThrough({ store: new MemoryStore() });
    let loads = 0;
    const item = {
      key: 'k',
      load: async () => {
        loads++;
        // Still running a turn of the event loop later: every other get has asked by then.
        await new Promise((r) => setImmediate(r));
        return { n: 1 };
      },
      ttlMs: () => 60_000,
    };
    const results = await Promise.all(Array.from({ length: 50 }, () => rt.get(item)));
    expect(loads).toBe(1);
    expect(results.every((r) => r.n === 1)).toBe(true);
    await rt.settled();
    await rt.get(item);
    expect(loads).toBe(1);
  });

  it('returns errors as values per key and does not cache them unless asked', async () => {
    const rt = new ReadThrough({ store: new MemoryStore() });
    let loads = 0;
    const failing = {
      key: 'f',
      load: async () => {
        loads++;
        throw new Error('boom');
      },
      ttlMs: () => 60_000,
    };
    const [a, b] = await rt.getMany([
      failing,
      { key: 'ok', load: async () => 'fine', ttlMs: () => 60_000 },
    ]);
    expect(a).toBeInstanceOf(Error);
    expect(b).toBe('fine');
    await rt.getMany([failing]);
    expect(loads).toBe(2);
  });

  it('settled() resolves once a refresh nobody waits for has loaded and stored its value', async () => {
    let now = 1_000_000;
    const rt = new ReadThrough({ store: new MemoryStore(), now: () => now });
    let loads = 0;
    let release: (() => void) | undefined;
    const item = {
      key: 's',
      ttlMs: () => 1_000,
      swrMs: 60_000,
      load: async () => {
        loads++;
        if (loads === 2) await new Promise<void>((r) => (release = r));
        return loads;
      },
    };
    expect(await rt.get(item)).toBe(1);
    now += 2_000;
    expect(await rt.get(item)).toBe(1); // stale: served at once, refreshed behind
    let done = false;
    const settled = rt.settled().then(() => {
      done = true;
    });
    await new Promise((r) => setImmediate(r));
    expect(done).toBe(false);
    release!();
    await settled;
    expect(await rt.get(item)).toBe(2);
    expect(loads).toBe(2);
  });

  it('expires entries by their TTL', async () => {
    let now = 1_000_000;
    const rt = new ReadThrough({ store: new MemoryStore(), now: () => now });
    let loads = 0;
    const item = { key: 'e', load: async () => ++loads, ttlMs: () => 1_000 };
    await rt.get(item);
    await rt.settled();
    now += 500;
    expect(await rt.get(item)).toBe(1);
    now += 1_000;
    expect(await rt.get(item)).toBe(2);
  });

  it('primes facts in one write; a fact that never changes is written once while it is fresh', async () => {
    let now = 1_000_000;
    const writes: string[][] = [];
    const store = new MemoryStore();
    const setMany = store.setMany.bind(store);
    store.setMany = (entries) => {
      writes.push(entries.map((e) => e.key));
      return setMany(entries);
    };
    const rt = new ReadThrough({ store, now: () => now });
    const fact = (key: string, once: boolean) => ({
      item: { key, ttlMs: () => 10_000, once },
      value: { key },
    });
    // A page's facts: one write for all of them.
    rt.prime([fact('block:1', true), fact('block:2', true), fact('message:9', false)]);
    expect(writes).toEqual([['block:1', 'block:2', 'message:9']]);
    // The same page read again: the final facts are skipped, the moving one is written again (fresher).
    now += 4_000;
    rt.prime([fact('block:1', true), fact('block:2', true), fact('message:9', false)]);
    expect(writes[1]).toEqual(['message:9']);
    // Past half their TTL they are written again, so a reader never finds them near expiry for long.
    now += 2_000;
    rt.prime([fact('block:1', true)]);
    expect(writes[2]).toEqual(['block:1']);
    expect(
      await rt.get({ key: 'block:2', load: async () => ({ key: 'loaded' }), ttlMs: () => 1 }),
    ).toEqual({
      key: 'block:2',
    });
  });

  it('does not encode a fact that never changes while it is skipped (the encoding is its cost)', () => {
    let now = 1_000_000;
    const rt = new ReadThrough({ store: new MemoryStore(), now: () => now });
    let encoded = 0;
    // JSON.stringify asks toJSON once per encoding of the value.
    const value = { toJSON: () => ({ encoded: ++encoded }) };
    const fact = { item: { key: 'tx:1', ttlMs: () => 10_000, once: true }, value };
    rt.prime([fact]);
    expect(encoded).toBe(1);
    now += 1_000;
    rt.prime([fact, fact]);
    expect(encoded).toBe(1);
    now += 5_000;
    rt.prime([fact]);
    expect(encoded).toBe(2);
  });
});
