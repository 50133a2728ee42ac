import { EventEmitter } from 'node:events';
import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { isAsyncIterable } from '@envelop/core';
import { describe, expect, it } from 'vitest';
import type { GatewayContext } from '../../src/context.js';
import { type TestGateway, useSimAndGateway } from '../support/gateway.js';
import { simGet } from '../support/sim.js';

/**
 * A request's context outlives its answer (Pothos keeps the context's own DataLoaders in a WeakMap keyed
 * by it; V8 keeps such entries through young-generation collections), so when its execution is over the
 * request's loaders let go of what they read (src/plugins/use-loader-release.ts). Checked on the real
 * gateway's plugin chain: a family of loaders used by the execution is not the one the context holds
 * afterwards; an incremental (@defer) execution keeps its loaders until its last part.
 */
/** Every family of `Loaders` (all but `pages`, which makes a list each time it is called). */
const FAMILIES = [
  'evm',
  'primary',
  'primaryNet',
  'primaryTxs',
  'icm',
  'metrics',
  'tokens',
  'staking',
  'metricsNetwork',
  'node',
  'evmState',
] as const satisfies readonly Exclude<keyof GatewayContext['loaders'], 'pages'>[];
let sim: RunningSimulator;
let gw: TestGateway;
const C = '43114';

useSimAndGateway({}, (s, g) => {
  sim = s;
  gw = g;
});

/**
 * Runs `query` through the gateway's own envelop (its plugins, its context), keeping the context. `res`
 * stands for the Node response of the exchange (direct execution and Yoga's Node adapter put it there).
 */
async function run(query: string, res?: EventEmitter) {
  const request = new Request('http://gateway.test/graphql', { method: 'POST' });
  const env = gw.yoga.getEnveloped({ request, params: { query }, ...(res ? { res } : {}) });
  const ctx = (await env.contextFactory()) as unknown as GatewayContext;
  const evm = ctx.loaders.evm;
  const result = await env.execute({
    schema: env.schema,
    document: env.parse(query),
    contextValue: ctx,
  });
  return { ctx, evm, result };
}

async function blockNumber(): Promise<string> {
  const { blocks } = await simGet(sim.dataApiUrl, `/v1/chains/${C}/blocks`, { pageSize: 1 });
  return String(Number(blocks[0].blockNumber) - 3);
}

describe('loader release', () => {
  it('after an execution the context holds fresh, empty loaders, not the ones that read the answer', async () => {
    const n = await blockNumber();
    const { ctx, evm, result } = await run(
      `{ block(chainId: "${C}", id: "${n}") { number transactions(first: 2) { edges { node { hash } } } } }`,
    );
    expect(isAsyncIterable(result)).toBe(false);
    expect((result as { data?: { block?: { number: string } } }).data?.block?.number).toBe(n);
    expect(ctx.loaders.evm).not.toBe(evm);
    // A loader reached for after the release still works (made again): the same block, read once more.
    const again = await ctx.loaders.evm.block.load({ chainId: C, blockId: n });
    expect(again.blockNumber).toBe(n);
  });

  it('every family of loaders is let go of, not only the one the query used', async () => {
    const query = '{ __typename }';
    const request = new Request('http://gateway.test/graphql', { method: 'POST' });
    const env = gw.yoga.getEnveloped({ request, params: { query } });
    const ctx = (await env.contextFactory()) as unknown as GatewayContext;
    const made = FAMILIES.map((f) => ctx.loaders[f]);
    await env.execute({ schema: env.schema, document: env.parse(query), contextValue: ctx });
    FAMILIES.forEach((f, i) => {
      expect(ctx.loaders[f], f).not.toBe(made[i]);
    });
  });

  it('an incremental execution keeps its loaders until its last part', async () => {
    const n = await blockNumber();
    const { ctx, evm, result } = await run(
      `{ block(chainId: "${C}", id: "${n}") { number ... @defer { transactions(first: 2) { edges { node { hash } } } } } }`,
    );
    expect(isAsyncIterable(result)).toBe(true);
    const iterator = (result as AsyncIterable<unknown>)[Symbol.asyncIterator]();
    await iterator.next();
    expect(ctx.loaders.evm).toBe(evm);
    while (!(await iterator.next()).done);
    expect(ctx.loaders.evm).not.toBe(evm);
  });

  it('the context lets go of its HTTP exchange once both the execution and the response are over', async () => {
    const n = await blockNumber();
    const query = `{ block(chainId: "${C}", id: "${n}") { number } }`;
    // The response closes after the execution (the usual order).
    const res = new EventEmitter();
    const { ctx } = await run(query, res);
    const exchange = ctx as unknown as Record<string, unknown>;
    expect(exchange.request).toBeInstanceOf(Request);
    expect(exchange.res).toBe(res);
    res.emit('close');
    for (const field of ['request', 'params', 'req', 'res'])
      expect(exchange[field]).toBeUndefined();
    expect(ctx.served).toBeDefined();

    // An incremental answer whose response closes before its last part: kept until that part.
    const early = new EventEmitter();
    const deferred = await run(
      `{ block(chainId: "${C}", id: "${n}") { number ... @defer { hash } } }`,
      early,
    );
    const parts = (deferred.result as AsyncIterable<unknown>)[Symbol.asyncIterator]();
    await parts.next();
    early.emit('close');
    expect((deferred.ctx as unknown as Record<string, unknown>).request).toBeInstanceOf(Request);
    while (!(await parts.next()).done);
    expect((deferred.ctx as unknown as Record<string, unknown>).request).toBeUndefined();
  });
});
