import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setupTracing, type Tracing } from '../../src/telemetry/tracing.js';
import { type TestGateway, useSimAndGateway } from '../support/gateway.js';
import { blockFailingOnce } from '../support/sim.js';

/**
 * The spans of one query, from an in-memory exporter: request → resolver batch (DataLoader) → cache
 * lookup → upstream call → HTTP attempt, with route templates, statuses and attempt numbers, and no
 * URL, key or header anywhere.
 */
const API_KEY = 'trace-test-secret-key-0123';
const exporter = new InMemorySpanExporter();
let tracing: Tracing;
let sim: RunningSimulator;
let gw: TestGateway;

// Tracing is set up before the fixture builds the gateway, and shut down after it closes it.
beforeAll(async () => {
  tracing = await setupTracing(
    { otlpTracesUrl: undefined, otlpHeaders: {}, serviceName: 'gateway-test', sampleRatio: 1 },
    { exporter },
  );
});
afterAll(async () => {
  await tracing?.shutdown();
});
useSimAndGateway(
  { redis: true, gateway: { env: { DATA_API_KEY: API_KEY, UPSTREAM_RETRIES: '2' } } },
  (s, g) => {
    sim = s;
    gw = g;
  },
);
beforeEach(() => {
  exporter.reset();
});

const QUERY = /* GraphQL */ `
  query LatestWithTransactions {
    chain(id: "43114") {
      blocks(first: 2) { edges { node { number transactions(first: 1) { edges { node { hash } } } } } }
    }
  }
`;

const id = (s: ReadableSpan) => s.spanContext().spanId;
const parentId = (s: ReadableSpan) => s.parentSpanContext?.spanId;

/** The spans as an indented tree, children in start order, with the attributes that tell the story. */
function printTree(spans: readonly ReadableSpan[]): string {
  const shown = [
    'graphql.operation.name',
    'http.response.status_code',
    'upstream.calls',
    'loader.batch_size',
    'cache.keys',
    'cache.hit',
    'cache.miss',
    'url.template',
    'rpc.method',
    'upstream.attempts',
    'upstream.status',
    'upstream.attempt',
    'error.type',
  ];
  const lines: string[] = [];
  const walk = (s: ReadableSpan, depth: number) => {
    const attrs = shown
      .filter((k) => s.attributes[k] !== undefined)
      .map((k) => `${k}=${JSON.stringify(s.attributes[k])}`);
    lines.push(`${'  '.repeat(depth)}${s.name}${attrs.length ? `  [${attrs.join(' ')}]` : ''}`);
    for (const c of childrenOf(spans, s)) walk(c, depth + 1);
  };
  for (const root of spans.filter((s) => !parentId(s) || !spans.some((p) => id(p) === parentId(s))))
    walk(root, 0);
  return lines.join('\n');
}
const childrenOf = (spans: readonly ReadableSpan[], s: ReadableSpan) =>
  spans
    .filter((c) => parentId(c) === id(s))
    .sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
const parentOf = (spans: readonly ReadableSpan[], s: ReadableSpan) =>
  spans.find((p) => id(p) === parentId(s));

describe('tracing with an in-memory exporter', () => {
  it('one query is one tree: request → resolver batch → cache lookup → upstream call → attempt', async () => {
    const r = await gw.query(QUERY);
    expect(r.errors).toBeUndefined();
    const spans = exporter.getFinishedSpans();
    console.log(`trace of one cold query (${spans.length} spans):\n${printTree(spans)}`);

    // One trace, one root: the HTTP request, a SERVER span that knows the operation and its upstream cost.
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
    const roots = spans.filter((s) => !parentId(s));
    expect(roots.map((s) => s.name)).toEqual(['POST /graphql']);
    const [root] = roots;
    expect(root!.kind).toBe(SpanKind.SERVER);
    expect(root!.attributes['graphql.operation.name']).toBe('LatestWithTransactions');
    expect(root!.attributes['graphql.operation.type']).toBe('query');
    expect(root!.attributes['http.response.status_code']).toBe(200);
    expect(root!.attributes['upstream.calls']).toBe(sim.stats().total);
    // Its compute units: the latest blocks (Small, 10) and two blocks' transactions (Medium, 20 each).
    expect(root!.attributes['upstream.cu']).toBe(50);

    // Resolver batches hang off the request; each one's cache lookup hangs off its batch.
    const batches = spans.filter((s) => s.name.startsWith('loader.batch'));
    expect(batches.map((s) => s.name).sort()).toEqual([
      'loader.batch data.blockTransactions',
      'loader.batch data.latestBlocks',
    ]);
    for (const b of batches) expect(parentOf(spans, b)).toBe(root);
    expect(
      batches.find((b) => b.name.endsWith('blockTransactions'))!.attributes['loader.batch_size'],
    ).toBe(2);

    const lookups = spans.filter((s) => s.name === 'cache.lookup');
    expect(lookups).toHaveLength(2);
    for (const l of lookups) {
      expect(batches).toContain(parentOf(spans, l));
      // Cold: every key is a miss, none a hit.
      expect(l.attributes['cache.miss']).toBe(l.attributes['cache.keys']);
      expect(l.attributes['cache.hit']).toBeUndefined();
    }

    // Each upstream call sits under a cache lookup and has one attempt below it, numbered 1, status 200.
    const calls = spans.filter((s) => s.name.startsWith('upstream '));
    expect(calls.map((s) => s.name).sort()).toEqual([
      'upstream data-api GET /v1/chains/:id/blocks',
      'upstream data-api GET /v1/chains/:id/blocks/:id/transactions',
      'upstream data-api GET /v1/chains/:id/blocks/:id/transactions',
    ]);
    expect(calls).toHaveLength(sim.stats().total);
    for (const c of calls) {
      expect(lookups).toContain(parentOf(spans, c));
      expect(c.attributes['upstream.name']).toBe('data-api');
      expect(c.attributes['upstream.attempts']).toBe(1);
      expect(c.attributes['upstream.status']).toBe('200');
      expect(c.attributes['upstream.cu']).toBe(c.name.endsWith('/transactions') ? 20 : 10);
      const attempts = childrenOf(spans, c);
      expect(attempts).toHaveLength(1);
      expect(attempts[0]!.kind).toBe(SpanKind.CLIENT);
      expect(attempts[0]!.attributes).toMatchObject({
        'upstream.attempt': 1,
        'http.request.resend_count': 0,
        'http.response.status_code': 200,
        'url.template': c.attributes['url.template'],
      });
    }

    // Nothing secret or unbounded: no URL, no query string, no key, no concrete id in any attribute.
    const everything = JSON.stringify(spans.map((s) => [s.name, s.attributes]));
    expect(everything).not.toContain(API_KEY);
    expect(everything).not.toContain('http://');
    expect(everything).not.toContain('pageSize');
    expect(everything).not.toContain('x-glacier-api-key');
  });

  it('a warm query reads the cache: lookups count hits and no upstream span exists', async () => {
    await gw.query(QUERY);
    exporter.reset();
    sim.reset();
    await gw.query(QUERY);
    const spans = exporter.getFinishedSpans();
    expect(sim.stats().total).toBe(0);
    expect(spans.filter((s) => s.name.startsWith('upstream '))).toEqual([]);
    const lookups = spans.filter((s) => s.name === 'cache.lookup');
    expect(lookups.length).toBeGreaterThan(0);
    for (const l of lookups) {
      expect(l.attributes['cache.hit']).toBe(l.attributes['cache.keys']);
      expect(l.attributes['cache.miss']).toBeUndefined();
    }
    expect(spans.find((s) => s.name === 'POST /graphql')!.attributes['upstream.calls']).toBe(0);
  });

  it('a retried call shows each attempt with its number and status', async () => {
    // A block nothing else here asked for (by number), so the call really goes upstream.
    const failingOnce = await blockFailingOnce(sim, 4);
    const r = await gw.query(`{ block(chainId: "43114", id: "${failingOnce}") { number } }`);
    expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
    const spans = exporter.getFinishedSpans();
    console.log(`trace of a retried call:\n${printTree(spans)}`);
    expect(spans.find((s) => s.name === 'POST /graphql')!.attributes['upstream.calls']).toBe(2);
    const call = spans.find((s) => s.name === 'upstream data-api GET /v1/chains/:id/blocks/:id')!;
    expect(call.attributes['upstream.attempts']).toBe(2);
    expect(call.attributes['upstream.status']).toBe('200');
    const attempts = childrenOf(spans, call);
    expect(
      attempts.map((a) => [
        a.attributes['upstream.attempt'],
        a.attributes['http.response.status_code'],
        a.status.code,
      ]),
    ).toEqual([
      [1, 503, SpanStatusCode.ERROR],
      [2, 200, SpanStatusCode.UNSET],
    ]);
  });

  it('node JSON-RPC calls carry their methods: a geth batch of two, a gorilla call of one', async () => {
    const r = await gw.query(`{ networkNode { nodeId cChain { chainId blockNumber } } }`);
    expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
    const spans = exporter.getFinishedSpans();
    console.log(`trace of a node query:\n${printTree(spans)}`);
    const rpc = spans.filter((s) => s.name.startsWith('jsonrpc '));
    expect(
      rpc
        .map((s) => [
          s.name,
          s.attributes['rpc.method'],
          s.attributes['rpc.jsonrpc.batch_size'],
          s.attributes['url.template'],
        ])
        .sort(),
    ).toEqual([
      ['jsonrpc batch', 'eth_blockNumber,eth_chainId', 2, '/ext/bc/C/rpc'],
      ['jsonrpc info.getNodeID', 'info.getNodeID', 1, '/ext/info'],
    ]);
    for (const s of rpc) {
      expect(s.attributes['rpc.system']).toBe('jsonrpc');
      expect(parentOf(spans, s)!.name).toBe('cache.lookup');
      expect(childrenOf(spans, s).map((c) => c.name)).toEqual([
        `upstream node POST ${s.attributes['url.template']}`,
      ]);
    }
  });
});
