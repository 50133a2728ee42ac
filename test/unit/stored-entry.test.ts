import { describe, expect, it } from 'vitest';
import { decodeEntry, encodeEntry, type StoredEntry } from '../../src/cache/entry.js';
import { KEY_PREFIX, keys } from '../../src/cache/keys.js';
import { createPageSnapshots } from '../../src/cache/page-snapshots.js';
import { ReadThrough } from '../../src/cache/read-through.js';
import { readResponseEntry, responseEntry } from '../../src/cache/response-entry.js';
import { MemoryStore } from '../../src/cache/store.js';

/**
 * The one stored-entry format (src/cache/entry.ts): named fields on the wire, one codec for read-through
 * values, remembered errors, whole responses and page snapshots; and a key version that keeps the entries
 * of an older format (written by the replicas of the last release, sharing Redis) out of reach.
 */
const NOW = 1_790_000_000_000;

describe('the stored-entry codec', () => {
  it('round-trips a value with every window and its version', () => {
    const entry: StoredEntry = {
      freshUntil: NOW + 10_000,
      revalidateUntil: NOW + 40_000,
      staleIfErrorUntil: NOW + 600_000,
      version: 'h70000480',
      value: { blocks: [{ blockNumber: '70000480', txCount: 3 }], nextPageToken: 'abc' },
    };
    expect(decodeEntry(encodeEntry(entry))).toEqual(entry);
  });

  it('round-trips a remembered error, a whole response and a page snapshot', () => {
    const negative: StoredEntry = {
      freshUntil: NOW + 30_000,
      error: { name: 'UpstreamError', message: 'not found', data: { status: 404 } },
    };
    expect(decodeEntry(encodeEntry(negative))).toEqual(negative);
    const response = responseEntry(
      { chain: { name: 'C-Chain' } },
      { now: NOW, ttlMs: 5_000, swrMs: 2_000, version: 'h1' },
    );
    expect(decodeEntry(response)).toEqual({
      freshUntil: NOW + 5_000,
      revalidateUntil: NOW + 7_000,
      storedAt: NOW,
      version: 'h1',
      value: { chain: { name: 'C-Chain' } },
    });
    expect(readResponseEntry(response, 'h1', NOW + 4_999)?.value).toEqual({
      chain: { name: 'C-Chain' },
    });
    expect(readResponseEntry(response, 'h1', NOW + 5_000)).toBeUndefined();
    expect(readResponseEntry(response, 'h2', NOW)).toBeUndefined();
  });

  it('writes named fields, never one-letter ones', async () => {
    const store = new MemoryStore({ purgeEveryMs: 0 });
    const cache = new ReadThrough({ store, now: () => NOW });
    await cache.get({
      key: 'k',
      version: 'h1',
      ttlMs: () => 1_000,
      swrMs: 2_000,
      staleIfErrorMs: 3_000,
      load: async () => ({ n: 1 }),
    });
    await cache.settled();
    const [raw] = await store.getMany(['k']);
    expect(Object.keys(JSON.parse(raw!))).toEqual([
      'freshUntil',
      'revalidateUntil',
      'staleIfErrorUntil',
      'version',
      'value',
    ]);
    const snapshots = createPageSnapshots(store, { now: () => NOW });
    await snapshots.put('c1', { items: [1, 2] });
    const [page] = await store.getMany([keys.pageSnapshot('c1')]);
    expect(JSON.parse(page!)).toEqual({
      freshUntil: NOW + 24 * 3600_000,
      value: { items: [1, 2] },
    });
    expect(await snapshots.get('c1')).toEqual({ items: [1, 2] });
  });

  it('reads corrupt text, other JSON and the one-letter format as a miss', () => {
    for (const raw of ['{', 'null', '[]', '"x"', '{"value":1}', `{"e":${NOW + 1_000},"v":1}`])
      expect(decodeEntry(raw)).toBeUndefined();
    expect(decodeEntry(undefined)).toBeUndefined();
  });
});

describe('entries of the older format version', () => {
  const parts = { upstream: 'data-api', method: 'GET', path: '/v1/chains/43114/blocks' };
  const oldKey = (key: string) => `gw:v1${key.slice(KEY_PREFIX.length)}`;

  it('live under keys the current version never reads', () => {
    expect(KEY_PREFIX).not.toBe('gw:v1');
    const key = keys.request(parts);
    expect(key.startsWith(`${KEY_PREFIX}:`)).toBe(true);
    expect(oldKey(key)).not.toBe(key);
  });

  it('are a miss for the read-through, the response cache and the page snapshots', async () => {
    const store = new MemoryStore({ purgeEveryMs: 0 });
    const key = keys.request(parts);
    const oldEntry = JSON.stringify({ e: NOW + 60_000, h: 'h1', v: 'old' });
    const oldResponse = JSON.stringify({ data: { old: true }, t: NOW, ttl: 60_000, h: 'h1' });
    const responseKey = keys.response('op', 'hash');
    await store.setMany([
      // What a replica of the last release wrote (its key version), and the same text under the current
      // key (a stray write): neither is read.
      { key: oldKey(key), value: oldEntry, ttlMs: 60_000 },
      { key, value: oldEntry, ttlMs: 60_000 },
      { key: oldKey(responseKey), value: oldResponse, ttlMs: 60_000 },
      { key: responseKey, value: oldResponse, ttlMs: 60_000 },
      { key: keys.pageSnapshot('c1'), value: JSON.stringify({ items: [1] }), ttlMs: 60_000 },
    ]);
    let loads = 0;
    const cache = new ReadThrough({ store, now: () => NOW });
    const item = {
      key,
      version: 'h1',
      ttlMs: () => 60_000,
      load: async () => {
        loads += 1;
        return 'new';
      },
    };
    expect(await cache.get(item)).toBe('new');
    expect(loads).toBe(1);
    expect(await cache.get(item)).toBe('new');
    expect(loads).toBe(1);
    const [stored] = await store.getMany([responseKey]);
    expect(readResponseEntry(stored, 'h1', NOW)).toBeUndefined();
    expect(await createPageSnapshots(store).get('c1')).toBeUndefined();
  });
});
