import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { createClientIdentifier } from '../../src/edge/client-budget.js';
import { estimateCost } from '../../src/edge/cost.js';
import { maxBracketNesting } from '../../src/edge/limits.js';
import { buildSchema } from '../../src/schema/index.js';
import { parseBlockId, parseChainId } from '../../src/schema/inputs.js';
import { createPacer } from '../../src/upstream/pacer.js';
import type { Transport } from '../../src/upstream/transport.js';

const schema = buildSchema();
const cost = (query: string, variables: Record<string, unknown> = {}) =>
  estimateCost(schema, parse(query), undefined, variables).cu;
const times = (n: number, f: (i: number) => string) =>
  Array.from({ length: n }, (_, i) => f(i)).join(' ');

/** Prices from src/schema/cost-declarations.ts: a block 10 CU, a chain 1, a block's transactions 20, a `nodes` id 200. */
describe("cost in compute units, from the schema's declarations", () => {
  it('counts every alias', () => {
    expect(cost(`{ a: block(chainId: "43114", id: "1") { number } }`)).toBe(10);
    expect(
      cost(`{ ${times(1000, (i) => `a${i}: block(chainId: "43114", id: "${i}") { number }`)} }`),
    ).toBe(10_000);
  });

  it('counts every _entities representation and nodes id, literal or from a variable', () => {
    const reps = Array.from({ length: 1000 }, (_, i) => ({
      __typename: 'Block',
      chainId: '43114',
      number: String(i),
    }));
    expect(
      cost(`query($r: [_Any!]!) { _entities(representations: $r) { __typename } }`, { r: reps }),
    ).toBe(1000 * 10);
    expect(
      cost(
        `{ _entities(representations: [${times(3, () => '{__typename: "Block", chainId: "1", number: "1"}')}]) { ... on Block { parent { number } } } }`,
      ),
    ).toBe(3 * (10 + 10));
    expect(cost(`{ nodes(ids: ["a", "b"]) { id } }`)).toBe(400);
  });

  it('multiplies a connection item by first, and pays its pages', () => {
    expect(
      cost(
        `{ chain(id: "1") { blocks(first: 500) { edges { node { transactions(first: 1) { edges { node { hash } } } } } } } }`,
      ),
    ).toBe(1 + 5 * 10 + 500 * 20);
    expect(
      cost(
        `query($n: Int) { chain(id: "1") { blocks(first: $n) { edges { node { number } } } } }`,
        { n: 3 },
      ),
    ).toBe(1 + 10);
    // no first: the connection's declared assumedSize (20) items
    expect(cost(`{ chain(id: "1") { blocks { edges { node { parent { number } } } } } }`)).toBe(
      1 + 10 + 20 * 10,
    );
  });

  it('multiplies a plain list by its assumed length (chains)', () => {
    expect(cost(`{ chains { name } }`)).toBe(10);
    expect(
      cost(
        `{ chains { blocks(first: 500) { edges { node { transactions(first: 1) { edges { node { hash } } } } } } } }`,
      ),
    ).toBeGreaterThan(100_000);
  });

  it('expands fragments once per use, and stays linear on fragment bombs', () => {
    expect(
      cost(`{ ...Q ...Q } fragment Q on Query { block(chainId: "1", id: "1") { number } }`),
    ).toBe(20);
    const levels = 30;
    const frags = Array.from(
      { length: levels },
      (_, i) =>
        `fragment F${i} on Block { ${i === levels - 1 ? 'parent { number }' : `a: parent { ...F${i + 1} } b: parent { ...F${i + 1} }`} }`,
    ).join('\n');
    const started = Date.now();
    expect(cost(`{ block(chainId: "1", id: "1") { ...F0 } } ${frags}`)).toBeGreaterThan(1e8);
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('counts introspection, and nothing for inline data', () => {
    expect(cost(`{ ${times(1000, (i) => `i${i}: __schema { types { name } }`)} }`)).toBe(10_000);
    expect(cost(`{ __typename network(name: "mainnet") { __typename } }`)).toBe(0);
  });
});

describe('document nesting', () => {
  it('is measured on the text, outside strings and comments', () => {
    expect(maxBracketNesting('{ a { b(x: [1, {y: 2}]) } }')).toBe(5);
    expect(maxBracketNesting('{ a(s: "{{{{", t: """{{{"""){ b } } # {{{{')).toBe(2);
    expect(maxBracketNesting(`{${'a{'.repeat(3000)}b${'}'.repeat(3001)}`, 64)).toBe(65);
  });
});

describe('ids above uint64 are refused before any upstream call', () => {
  it('block numbers and chain ids', () => {
    expect(parseBlockId('18446744073709551615')).toBe('18446744073709551615');
    expect(() => parseBlockId('18446744073709551616')).toThrow(/2\^64-1/);
    expect(() => parseBlockId('99999999999999999999')).toThrow(/2\^64-1/);
    expect(parseChainId('43114')).toBe('43114');
    expect(() => parseChainId('18446744073709551616')).toThrow(/2\^64-1/);
  });
});

describe('client identity', () => {
  const h = (o: Record<string, string>) => new Headers(o);
  it('is the API key (hashed) and the IP: an unverified key never stands alone', () => {
    const id = createClientIdentifier([]);
    const [a, ip] = id(h({ 'x-glacier-api-key': 'secret-key' }), '10.0.0.1');
    expect(a).toMatch(/^key:/);
    expect(a).not.toContain('secret-key');
    expect(ip).toBe('ip:10.0.0.1');
    expect(id(h({ 'x-glacier-api-key': 'secret-key' }), '10.0.0.2')).toEqual([a, 'ip:10.0.0.2']);
    expect(id(h({}), '10.0.0.1')).toEqual(['ip:10.0.0.1']);
  });
  it('believes x-forwarded-for only from a trusted proxy, reading from the right', () => {
    const none = createClientIdentifier([]);
    expect(none(h({ 'x-forwarded-for': '1.2.3.4' }), '10.0.0.1')).toEqual(['ip:10.0.0.1']);
    const trusted = createClientIdentifier(['10.0.0.0/8', 'loopback']);
    expect(
      trusted(h({ 'x-forwarded-for': '6.6.6.6, 1.2.3.4, 10.1.1.1' }), '::ffff:10.0.0.1'),
    ).toEqual(['ip:1.2.3.4']);
    expect(trusted(h({ 'x-forwarded-for': 'garbage' }), '127.0.0.1')).toEqual(['ip:127.0.0.1']);
    expect(trusted(h({ 'x-forwarded-for': '1.2.3.4' }), '192.168.1.1')).toEqual(['ip:192.168.1.1']);
  });
  it('gives every spelling of one address one identity, and an IPv6 network its /64 (issue 42)', () => {
    const peer = createClientIdentifier([]);
    const v4 = ['1.2.3.4', '::ffff:1.2.3.4', '::FFFF:102:304', '0:0:0:0:0:ffff:1.2.3.4'];
    for (const a of v4) expect(peer(h({}), a), a).toEqual(['ip:1.2.3.4']);
    const v6 = [
      '2001:db8::1',
      '2001:DB8::1',
      '2001:db8:0:0:0:0:0:1',
      '2001:0db8:0000::0001',
      '2001:db8::1%eth0',
      // Another address of the same /64: the same subscriber.
      '2001:db8::ffff:abcd:1:2',
    ];
    for (const a of v6) expect(peer(h({}), a), a).toEqual(['ip:2001:db8::/64']);
    expect(peer(h({}), '2001:db8:0:1::1')).toEqual(['ip:2001:db8:0:1::/64']);
    // Through a trusted proxy, the forwarded spellings too.
    const proxied = createClientIdentifier(['loopback']);
    expect(proxied(h({ 'x-forwarded-for': '2001:DB8:0:0::7' }), '::1')).toEqual([
      'ip:2001:db8::/64',
    ]);
    expect(proxied(h({ 'x-forwarded-for': '::ffff:198.51.100.9' }), '::ffff:127.0.0.1')).toEqual([
      'ip:198.51.100.9',
    ]);
  });
});

describe('pacing on ratelimit-remaining', () => {
  it('spaces calls once the upstream says its window is nearly spent, and not before', async () => {
    let remaining = 20;
    const fake: Transport = async () => {
      const headers: Record<string, string> = {
        'ratelimit-remaining': String(remaining--),
        'ratelimit-policy': '25;w=1',
      };
      return { status: 200, header: (name) => headers[name], body: '{}' };
    };
    const pauses: number[] = [];
    const pacer = createPacer({
      slowdownBelow: 10,
      maxDelayMs: 200,
      onPause: (ms) => pauses.push(ms),
    });
    const observed = pacer.observe(fake);
    const paced = async (url: string) => {
      await pacer.wait();
      return observed({ method: 'GET', url, headers: {}, timeoutMs: 1000, maxBodyBytes: 1000 });
    };
    for (let i = 0; i < 10; i++) await paced('http://x');
    expect(pauses).toEqual([]);
    const started = Date.now();
    for (let i = 0; i < 3; i++) await paced('http://x');
    expect(pauses.length).toBeGreaterThan(0);
    // remaining 9 then 8 in a 1 s window: about 100 ms between calls
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
  });
});

describe('cost of deferred and streamed parts', () => {
  it('a deferred fragment or a streamed list costs what it costs inline', () => {
    const inline = `{ chain(id: "43114") { blocks(first: 50) { edges { node { number transactions(first: 3) { edges { node { hash } } } } } } } }`;
    const deferred = `{ chain(id: "43114") { ... @defer { blocks(first: 50) { edges { node { number ... @defer(label: "t") { transactions(first: 3) { edges { node { hash } } } } } } } } } }`;
    const streamed = `{ chain(id: "43114") { blocks(first: 50) { edges @stream(initialCount: 1) { node { number transactions(first: 3) { edges { node { hash } } } } } } } }`;
    expect(cost(inline)).toBeGreaterThan(50);
    expect(cost(deferred)).toBe(cost(inline));
    expect(cost(streamed)).toBe(cost(inline));
  });
});
