import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createPageSnapshots } from '../../src/cache/page-snapshots.js';
import { MemoryStore } from '../../src/cache/store.js';
import { pagedList } from '../../src/loaders/request-loader.js';
import { resolveTokenConnection } from '../../src/schema/connection.js';

/**
 * What a connection leaves behind once its request is over. An object literal with an accessor
 * (`{ get endCursor() {…} }`) gets an accessor pair and a hidden class of its own, which V8 keeps in
 * the old generation; from there the getter's closure and everything it reaches (the edges, the page
 * they point into) survive every young-generation collection until a full one, and are promoted.
 * A connection's answer was such a literal: a cold block query promoted its whole upstream page
 * (bench/README.md, "What a request leaves behind").
 *
 * Measured in a child process with `--expose-gc`: 100 connections over 200 KB pages each, dropped,
 * then young-generation collections only; the old generation must not have grown by their pages. The
 * same run measures a getter literal over the same pages, which must grow it (so the check can fail).
 */
const SCRIPT = `
import v8 from 'node:v8';
const { resolveTokenConnection } = await import('./src/schema/connection.ts');
const { pagedList } = await import('./src/loaders/request-loader.ts');
const { createPageSnapshots } = await import('./src/cache/page-snapshots.ts');
const { MemoryStore } = await import('./src/cache/store.ts');
const oldSpace = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space').space_used_size;
const minor = () => { for (let i = 0; i < 3; i++) gc({ type: 'minor' }); };
const page = (n) => ({
  items: Array.from({ length: 100 }, (_, i) => ({ key: n + '-' + i, blob: 'x'.repeat(2000) + n })),
  nextPageToken: 't',
});
const ctx = { cursorSecret: 's'.repeat(32), maxFirst: 100, snapshots: createPageSnapshots(new MemoryStore()) };
async function connections(n) {
  for (let k = 0; k < n; k++) {
    const p = page(k);
    const c = await resolveTokenConnection({ first: 5 }, ctx, {
      pages: pagedList('list', async () => p), pageSize: 100, itemKey: (x) => x.key, frozenHead: true,
    });
    if (!c.pageInfo.hasNextPage || c.pageInfo.endCursor === null) throw new Error('unexpected page');
  }
}
async function getterLiterals(n) {
  let sink = 0;
  for (let k = 0; k < n; k++) {
    const p = page(k);
    const o = { get first() { return p.items[0]; } };
    sink += o.first ? 1 : 0;
    await null;
  }
  return sink;
}
await connections(5);
await getterLiterals(5);
gc(); minor();
let before = oldSpace();
await connections(100);
minor();
const connectionsMb = (oldSpace() - before) / 1e6;
gc(); minor();
before = oldSpace();
await getterLiterals(100);
minor();
const controlMb = (oldSpace() - before) / 1e6;
console.log(JSON.stringify({ connectionsMb, controlMb }));
`;

describe('a connection once its request is over', () => {
  it('reads its cursors from a shared class, not an accessor literal per answer', async () => {
    const items = ['a', 'b', 'c'];
    const ctx = {
      cursorSecret: 'test-cursor-secret',
      maxFirst: 10,
      snapshots: createPageSnapshots(new MemoryStore()),
    };
    const run = () =>
      resolveTokenConnection<string>({ first: 2 }, ctx, {
        pages: pagedList('list', async () => ({ items, nextPageToken: null })),
        pageSize: 10,
        itemKey: (s) => s,
      });
    const [a, b] = await Promise.all([run(), run()]);
    expect(a.pageInfo.startCursor).toBe(a.edges[0]!.cursor);
    expect(a.pageInfo.endCursor).toBe(a.edges[1]!.cursor);
    expect(a.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    for (const own of [a.pageInfo, a.edges[0]!])
      for (const name of ['startCursor', 'endCursor', 'cursor'])
        expect(Object.getOwnPropertyDescriptor(own, name)).toBeUndefined();
    expect(Object.getPrototypeOf(a.pageInfo)).toBe(Object.getPrototypeOf(b.pageInfo));
    const empty = await resolveTokenConnection<string>({ first: 0 }, ctx, {
      pages: pagedList('list', async () => ({ items, nextPageToken: null })),
      pageSize: 10,
      itemKey: (s) => s,
    });
    expect(empty.pageInfo).toMatchObject({ startCursor: null, endCursor: null, hasNextPage: true });
  });

  it('leaves its page to the young generation: nothing of it is promoted after the request', () => {
    const out = execFileSync(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', '--input-type=module', '--eval', SCRIPT],
      { encoding: 'utf8', timeout: 60_000 },
    );
    const { connectionsMb, controlMb } = JSON.parse(out.trim().split('\n').at(-1)!) as {
      connectionsMb: number;
      controlMb: number;
    };
    // The control (20 MB of pages behind getter literals) shows the mechanism is there to catch.
    expect(controlMb).toBeGreaterThan(2);
    expect(connectionsMb).toBeLessThan(1);
  }, 90_000);
});
