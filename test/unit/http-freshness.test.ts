import { describe, expect, it } from 'vitest';
import { credentialed } from '../../src/cache/credentials.js';
import { cachingHeaders, etagOf, VARY } from '../../src/cache/http-freshness.js';
import {
  entryFreshness,
  readResponseEntry,
  responseEntry,
} from '../../src/cache/response-entry.js';

/**
 * The caching headers every way in writes (Yoga's caching plugin, direct execution, the fast path's
 * hits) come from `cachingHeaders`; a hit's freshness from `entryFreshness`.
 */
const body = '{"data":{"x":1}}';
const base = { status: 200, method: 'POST', credentialed: false, body, ifNoneMatch: null };

describe('cachingHeaders', () => {
  it('a fresh answer is public for the freshness left, with Age when it is already old', () => {
    const { headers, notModified } = cachingHeaders({
      ...base,
      freshness: { maxAgeMs: 5_999, swrMs: 30_500, ageMs: 2_400 },
    });
    expect(Object.entries(headers)).toEqual([
      ['vary', VARY],
      ['cache-control', 'public, max-age=5, stale-while-revalidate=30'],
      ['age', '2'],
      ['etag', etagOf(body)],
    ]);
    expect(notModified).toBe(false);
  });

  it('no Age for an answer just executed; a negative age is 0', () => {
    const fresh = cachingHeaders({ ...base, freshness: { maxAgeMs: 1_000, swrMs: 0 } }).headers;
    expect(fresh.age).toBeUndefined();
    const skewed = cachingHeaders({ ...base, freshness: { maxAgeMs: 0, swrMs: 0, ageMs: -5 } });
    expect(skewed.headers.age).toBe('0');
  });

  it('no-store without freshness, for a status other than 200 or another method; private with a credential', () => {
    const f = { maxAgeMs: 1_000, swrMs: 0 };
    expect(cachingHeaders(base).headers['cache-control']).toBe('no-store');
    expect(cachingHeaders({ ...base, status: 400, freshness: f }).headers['cache-control']).toBe(
      'no-store',
    );
    expect(cachingHeaders({ ...base, method: 'PUT', freshness: f }).headers['cache-control']).toBe(
      'no-store',
    );
    const withKey = cachingHeaders({ ...base, credentialed: true, freshness: f });
    expect(withKey.headers['cache-control']).toBe('private, no-store');
    expect(withKey.headers.age).toBeUndefined();
  });

  it('304 only for a 200 whose If-None-Match matches (weak or strong, in a list, or *)', () => {
    const etag = etagOf(body);
    const strong = etag.replace(/^W\//, '');
    expect(cachingHeaders({ ...base, ifNoneMatch: etag }).notModified).toBe(true);
    expect(cachingHeaders({ ...base, ifNoneMatch: `"x", ${strong}` }).notModified).toBe(true);
    expect(cachingHeaders({ ...base, ifNoneMatch: '*' }).notModified).toBe(true);
    expect(cachingHeaders({ ...base, ifNoneMatch: '"other"' }).notModified).toBe(false);
    expect(cachingHeaders({ ...base, status: 500, ifNoneMatch: etag }).notModified).toBe(false);
  });
});

describe('entryFreshness', () => {
  it('the freshness left and the age of an entry with its stored time; none without', () => {
    expect(
      entryFreshness(
        { value: 1, storedAt: 1_000, freshUntil: 11_000, revalidateUntil: 15_000 },
        3_000,
      ),
    ).toEqual({
      maxAgeMs: 8_000,
      swrMs: 4_000,
      ageMs: 2_000,
    });
    expect(entryFreshness({ value: 1, storedAt: 1_000, freshUntil: 2_000 }, 5_000)).toEqual({
      maxAgeMs: 0,
      swrMs: 0,
      ageMs: 4_000,
    });
    expect(entryFreshness({ value: 1, freshUntil: 6_000 }, 5_000)).toBeUndefined();
  });
});

describe('credentialed', () => {
  it('reads WHATWG headers and Node header objects alike', () => {
    expect(credentialed(new Headers({ authorization: 'Bearer x' }))).toBe(true);
    expect(credentialed(new Headers({ accept: '*/*' }))).toBe(false);
    expect(credentialed({ 'x-glacier-api-key': 'k' })).toBe(true);
    expect(credentialed({ accept: '*/*' })).toBe(false);
  });
});

describe('tag headers', () => {
  const get = { ...base, method: 'GET' };
  const freshness = { maxAgeMs: 2_000, swrMs: 0, tags: ['block:43114:1', 'chain:43114:head'] };

  it('a public answer names its tags in each configured header, after Age and before ETag', () => {
    const { headers } = cachingHeaders({
      ...get,
      freshness,
      tagHeaders: ['surrogate-key', 'cache-tag'],
    });
    expect(Object.entries(headers)).toEqual([
      ['vary', VARY],
      ['cache-control', 'public, max-age=2, stale-while-revalidate=0'],
      ['surrogate-key', 'block:43114:1 chain:43114:head'],
      ['cache-tag', 'block:43114:1,chain:43114:head'],
      ['etag', etagOf(body)],
    ]);
  });

  it('no tags on an answer no shared cache keeps, when the header is off, or for no tags', () => {
    const tagHeaders = ['surrogate-key'];
    const names = (input: Parameters<typeof cachingHeaders>[0]) =>
      Object.keys(cachingHeaders(input).headers);
    expect(names({ ...get, freshness, tagHeaders, credentialed: true })).not.toContain(
      'surrogate-key',
    );
    expect(names({ ...get, freshness, tagHeaders, status: 500 })).not.toContain('surrogate-key');
    expect(names({ ...get, tagHeaders })).not.toContain('surrogate-key');
    expect(names({ ...get, freshness })).not.toContain('surrogate-key');
    expect(names({ ...get, freshness: { ...freshness, tags: [] }, tagHeaders })).not.toContain(
      'surrogate-key',
    );
  });

  it('a stored response keeps its tags; read for a tagged gateway, an entry without them is a miss', () => {
    const keep = { now: 1_000, ttlMs: 5_000, swrMs: 0, version: '' };
    const tagged = responseEntry({ x: 1 }, { ...keep, tags: ['block:43114:1'] });
    const entry = readResponseEntry(tagged, '', 2_000, true);
    expect(entry && entryFreshness(entry, 2_000)?.tags).toEqual(['block:43114:1']);
    const untagged = responseEntry({ x: 1 }, keep);
    expect(readResponseEntry(untagged, '', 2_000, true)).toBeUndefined();
    expect(readResponseEntry(untagged, '', 2_000)).toBeDefined();
  });
});
