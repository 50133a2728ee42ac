import { describe, expect, it } from 'vitest';
import { createCachePolicy } from '../../src/cache/policy.js';
import { ReadThrough } from '../../src/cache/read-through.js';
import { MemoryStore } from '../../src/cache/store.js';
import { type LoaderDeps, pageLoader } from '../../src/loaders/request-loader.js';
import type { Page, UpstreamRequest } from '../../src/upstream/request.js';

/**
 * A list is declared once (issue 13): its identity, which cursors are bound to, is the upstream
 * request of its first page. No resolver names a list by hand, so two fields reading one upstream
 * list share cursors, and a list with other filters is another list.
 */
interface Key {
  network: string;
  sortOrder?: 'asc' | 'desc';
  startBlock?: number;
  pageToken: string | null;
}

function setup() {
  const sent: Record<string, string | number | boolean | undefined>[] = [];
  const deps: LoaderDeps = {
    cache: new ReadThrough({ store: new MemoryStore() }),
    policy: createCachePolicy(),
  };
  const request = (k: Key): UpstreamRequest<Page<string>> => {
    const query = {
      sortOrder: k.sortOrder,
      startBlock: k.startBlock,
      pageToken: k.pageToken ?? undefined,
      pageSize: 10,
    };
    return {
      upstream: 'data-api',
      resource: 'data.blockchains',
      method: 'GET',
      path: `/v1/networks/${k.network}/blockchains`,
      query,
      pageToken: k.pageToken,
      run: async () => {
        sent.push(query);
        return { items: [`${k.network}:${k.pageToken ?? 'head'}`], nextPageToken: 'T2' };
      },
    };
  };
  return { sent, loader: () => pageLoader(deps, request) };
}

describe('a list identity is its first page request', () => {
  it('equal for two readers of one list, whatever key order or loader instance', () => {
    const { loader } = setup();
    const a = loader().list({ network: 'mainnet', sortOrder: 'asc' });
    const b = loader().list({ sortOrder: 'asc', network: 'mainnet' });
    expect(a.identity).toBe(b.identity);
  });

  it('another filter value, or another route, is another list', () => {
    const { loader } = setup();
    const l = loader();
    const base = l.list({ network: 'mainnet' }).identity;
    expect(l.list({ network: 'mainnet', sortOrder: 'desc' }).identity).not.toBe(base);
    expect(l.list({ network: 'fuji' }).identity).not.toBe(base);
  });

  it('the page token is not part of it; pages are fetched with it', async () => {
    const { loader, sent } = setup();
    const list = loader().list({ network: 'mainnet' });
    expect(list.identity).not.toMatch(/pageToken/);
    expect(await list.fetchPage('T2')).toEqual({ items: ['mainnet:T2'], nextPageToken: 'T2' });
    expect(sent.at(-1)).toMatchObject({ pageToken: 'T2' });
  });

  it('a block resume replaces the range in the key but not the identity', async () => {
    const { loader, sent } = setup();
    const list = loader().list({ network: 'mainnet', startBlock: 5 }, (r) => ({
      startBlock: Number(r.startBlock),
    }));
    const identity = list.identity;
    await list.fetchPage(null, { startBlock: '42' });
    expect(sent.at(-1)).toMatchObject({ startBlock: 42 });
    expect(list.identity).toBe(identity);
  });

  it('a reshaped list (map) keeps its identity', async () => {
    const { loader } = setup();
    const list = loader().list({ network: 'mainnet' });
    const upper = list.map((p) => ({ ...p, items: p.items.map((x) => x.toUpperCase()) }));
    expect(upper.identity).toBe(list.identity);
    expect((await upper.fetchPage(null)).items).toEqual(['MAINNET:HEAD']);
  });
});
