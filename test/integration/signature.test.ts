import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { describe, expect, it } from 'vitest';
import {
  AggregatedSignaturesDocument,
  AggregateSignaturesDocument,
} from '../__generated__/graphql.js';
import { codes, type TestGateway, useSimAndGateway } from '../support/gateway.js';
import { expectBadInput, routeCalls } from './primary-support.js';

/** Signature aggregation: the POST mutation and the GET field reach the upstream every time, once. */
const POST_ROUTE = 'data-api POST /v1/signatureAggregator/:network/aggregateSignatures';
const GET_ROUTE = 'data-api GET /v1/signatureAggregator/:network/aggregateSignatures/:txHash';
const MESSAGE = `0x${'00'.repeat(6)}59f3be606497285d0ffbb5ac9ba24aa60346a9b1812479ed66cb329f394a4b1c`;

let sim: RunningSimulator;
let gw: TestGateway;
useSimAndGateway({ redis: true }, (s, g) => {
  sim = s;
  gw = g;
});

async function upstreamPost(
  network: string,
  body: unknown,
): Promise<{ status: number; json: any }> {
  const res = await fetch(
    `${sim.dataApiUrl}/v1/signatureAggregator/${network}/aggregateSignatures`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    },
  );
  return { status: res.status, json: await res.json() };
}

describe('aggregateSignatures (mutation over the POST, answered 201)', () => {
  it('returns the upstream’s signed message, and reaches the upstream every time (never cached)', async () => {
    const body = {
      message: MESSAGE,
      signingSubnetId: sim.world.fixtures.l1SubnetId,
      quorumPercentage: 60,
      quorumPercentageBuffer: 20,
      pChainHeight: 1155,
    };
    const expected = await upstreamPost('mainnet', body);
    expect(expected.status).toBe(201);
    sim.reset();
    for (let i = 1; i <= 3; i++) {
      const r = await gw.exec(AggregateSignaturesDocument, { network: 'mainnet', ...body });
      expect(r.errors).toBeUndefined();
      expect(r.data!.aggregateSignatures).toEqual({ signedMessage: expected.json.signedMessage });
      expect(routeCalls(sim)).toEqual({ [POST_ROUTE]: i });
    }
  });

  it('a justification alone, on testnet (sent as fuji)', async () => {
    const expected = await upstreamPost('fuji', { justification: '0001abcdabcfff' });
    const r = await gw.exec(AggregateSignaturesDocument, {
      network: 'testnet',
      justification: '0001abcdabcfff',
    });
    expect(r.data!.aggregateSignatures!.signedMessage).toBe(expected.json.signedMessage);
  });

  it('an upstream 400 comes back as BAD_USER_INPUT with the upstream’s message', async () => {
    const message = ['message is not a valid warp message: unpacking failed'];
    sim.addFault({
      route: POST_ROUTE,
      status: 400,
      body: { message, statusCode: 400, error: 'Bad Request' },
      count: 1,
    });
    const r = await gw.exec(AggregateSignaturesDocument, {
      network: 'mainnet',
      message: '0xabcdef',
    });
    expect(codes(r)).toEqual(['BAD_USER_INPUT']);
    expect(r.errors![0]!.message).toContain(message[0]);
    expect(r.errors![0]!.extensions!.upstreamStatus).toBe(400);
    expect(r.data!.aggregateSignatures).toBeNull();
  });

  it('is never retried: a 503 is one upstream call and an UPSTREAM_UNAVAILABLE error', async () => {
    sim.addFault({
      route: POST_ROUTE,
      status: 503,
      body: { message: 'Service Unavailable', statusCode: 503, error: 'Service Unavailable' },
      count: 1,
    });
    const r = await gw.exec(AggregateSignaturesDocument, { network: 'mainnet', message: MESSAGE });
    expect(codes(r)).toEqual(['UPSTREAM_UNAVAILABLE']);
    expect(routeCalls(sim)).toEqual({ [POST_ROUTE]: 1 });
  });

  it.each([
    [{ network: 'devnet', message: MESSAGE }, 'network'],
    [{ network: 'mainnet' }, 'message'],
    [{ network: 'mainnet', message: '0xabc' }, 'message'],
    [{ network: 'mainnet', message: 'zz' }, 'message'],
    [{ network: 'mainnet', message: '0x' }, 'message'],
    [{ network: 'mainnet', justification: 'xyz' }, 'justification'],
    [
      {
        network: 'mainnet',
        message: MESSAGE,
        signingSubnetId: '7WtoAMPhrmh5KosDUsFL9yTcvw7YSxiKHPpdfs4JsgW47oZT6',
      },
      'signingSubnetId',
    ],
    [{ network: 'mainnet', message: MESSAGE, quorumPercentage: 101 }, 'quorumPercentage'],
    [{ network: 'mainnet', message: MESSAGE, quorumPercentage: -1 }, 'quorumPercentage'],
    [
      { network: 'mainnet', message: MESSAGE, quorumPercentageBuffer: 101 },
      'quorumPercentageBuffer',
    ],
    [
      { network: 'mainnet', message: MESSAGE, quorumPercentage: 80, quorumPercentageBuffer: 21 },
      'quorumPercentageBuffer',
    ],
    [
      { network: 'mainnet', message: MESSAGE, quorumPercentageBuffer: 34 },
      'quorumPercentageBuffer',
    ],
    [{ network: 'mainnet', message: MESSAGE, pChainHeight: -5 }, 'pChainHeight'],
  ])('%j → BAD_USER_INPUT naming %s, before any upstream call', async (vars, argument) => {
    const r = await gw.exec(AggregateSignaturesDocument, vars as never);
    expectBadInput(r, argument);
    expect(sim.stats().total).toBe(0);
  });

  it('quorum 0–100 with a sum of exactly 100 is accepted', async () => {
    const r = await gw.exec(AggregateSignaturesDocument, {
      network: 'mainnet',
      message: MESSAGE,
      quorumPercentage: 33,
      quorumPercentageBuffer: 67,
      signingSubnetId: `0x${'ab'.repeat(32)}`,
    });
    expect(r.errors).toBeUndefined();
    expect(routeCalls(sim)).toEqual({ [POST_ROUTE]: 1 });
  });
});

describe('Network.aggregatedSignatures(txHash) (the GET, answered 201)', () => {
  it('returns the upstream’s signed message and is never cached, not even as a whole response', async () => {
    const txHash = sim.world.primary.fuji.stakingTxs[0]!.txHash;
    const res = await fetch(
      `${sim.dataApiUrl}/v1/signatureAggregator/fuji/aggregateSignatures/${txHash}`,
    );
    expect(res.status).toBe(201);
    const expected = await res.json();
    sim.reset();
    for (let i = 1; i <= 2; i++) {
      const r = await gw.exec(AggregatedSignaturesDocument, { network: 'fuji', txHash });
      expect(r.errors).toBeUndefined();
      expect(r.data!.network.aggregatedSignatures).toEqual(expected);
      expect(routeCalls(sim)).toEqual({ [GET_ROUTE]: i });
    }
  });

  it('a txHash without a valid CB58 checksum is BAD_USER_INPUT before any upstream call', async () => {
    const bad = `${sim.world.primary.fuji.stakingTxs[0]!.txHash.slice(0, -1)}1`;
    expectBadInput(
      await gw.exec(AggregatedSignaturesDocument, { network: 'fuji', txHash: bad }),
      'txHash',
    );
    expectBadInput(
      await gw.exec(AggregatedSignaturesDocument, { network: 'fuji', txHash: '0xabc' }),
      'txHash',
    );
    expect(sim.stats().total).toBe(0);
  });
});
