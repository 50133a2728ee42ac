import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../src/index.js';
import { get, send } from './helpers.js';

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(() => sim?.close());

const bad = (message: string | string[]) => ({ statusCode: 400, error: 'Bad Request', message });

describe('Data API validation answers the real 400 / 404 bodies', () => {
  it('checks page sizes per route', async () => {
    const r = await get(sim.dataApiUrl, '/v1/chains/43114/blocks', { pageSize: 101 });
    expect(r.status).toBe(400);
    expect(r.body).toEqual(bad(['pageSize must not be greater than 100']));
    expect(
      (await get(sim.dataApiUrl, '/v1/chains/43114/transactions', { pageSize: 0 })).body,
    ).toEqual(bad(['pageSize must not be less than 1']));
    expect(
      (await get(sim.dataApiUrl, '/v1/chains/43114/blocks', { pageSize: 'ten' })).body,
    ).toEqual(bad(['pageSize must be an integer number']));
    const block = sim.world.fixtures.blockNumber;
    expect(
      (await get(sim.dataApiUrl, `/v1/chains/43114/blocks/${block}/transactions`, { pageSize: 0 }))
        .status,
    ).toBe(200);
    expect(
      (await get(sim.dataApiUrl, `/v1/chains/43114/blocks/${block}/transactions`, { pageSize: -1 }))
        .body,
    ).toEqual(bad(['pageSize must not be less than 0']));
    expect(
      (await get(sim.dataApiUrl, '/v1/networks/mainnet/l1Validators', { pageSize: 1000 })).status,
    ).toBe(400);
  });

  it('checks enums, ranges and address formats, collecting every failure', async () => {
    const a = sim.world.fixtures.busyAddress;
    const r = await get(sim.dataApiUrl, `/v1/chains/43114/addresses/${a}/transactions`, {
      sortOrder: 'up',
      pageSize: 500,
      startBlock: -1,
    });
    expect(r.status).toBe(400);
    expect([...r.body.message].sort()).toEqual([
      'pageSize must not be greater than 100',
      'sortOrder must be one of the following values: asc, desc',
      'startBlock must not be less than 0',
    ]);
    expect(
      (
        await get(sim.dataApiUrl, `/v1/chains/43114/addresses/${a}/transactions:listNative`, {
          startBlock: 10,
          endBlock: 10,
        })
      ).body,
    ).toEqual(bad(['startBlock must be less than endBlock']));
    expect(
      (await get(sim.dataApiUrl, '/v1/chains/43114/transactions', { status: 'ok' })).body,
    ).toEqual(bad(['status must be one of the following values: failed, success']));
    expect(
      (
        await get(sim.dataApiUrl, `/v1/chains/43114/addresses/${a}/balances:getNative`, {
          currency: 'btc',
        })
      ).status,
    ).toBe(400);
    expect(
      (await get(sim.dataApiUrl, '/v1/chains/43114/addresses/0xnope/transactions')).body,
    ).toEqual(bad(['Invalid address format']));
    expect((await get(sim.dataApiUrl, '/v1/icm/addresses/avax1xyz/messages')).status).toBe(400);
    expect((await get(sim.dataApiUrl, '/v1/networks/devnet/l1Validators')).body).toEqual(
      bad(['network must be one of the following values: mainnet, fuji, testnet']),
    );
    expect(
      (
        await get(
          sim.dataApiUrl,
          '/v1/networks/mainnet/blockchains/x-chain/transactions:listStaking',
        )
      ).status,
    ).toBe(400);
    expect(
      (await get(sim.dataApiUrl, '/v1/networks/mainnet/blockchains/q-chain/balances')).status,
    ).toBe(400);
    expect(
      (
        await get(sim.dataApiUrl, '/v1/networks/mainnet/blockchains/p-chain/balances', {
          addresses: 'fuji1abc',
        })
      ).body,
    ).toEqual(bad(['Invalid address format']));
    expect(
      (
        await get(
          sim.dataApiUrl,
          '/v1/networks/mainnet/blockchains/p-chain/transactions:listStaking',
          { txTypes: 'AddValidatorTx,Nope' },
        )
      ).status,
    ).toBe(400);
    expect(
      (
        await get(sim.dataApiUrl, '/v1/networks/mainnet/l1Validators', {
          includeInactiveL1Validators: 'yes',
        })
      ).body,
    ).toEqual(bad(['includeInactiveL1Validators must be a boolean value']));
    expect((await get(sim.dataApiUrl, '/v1/networks/mainnet/validators/node-1')).status).toBe(400);
  });

  it('validates the signature aggregation body', async () => {
    const path = '/v1/signatureAggregator/mainnet/aggregateSignatures';
    const post = (body: unknown) => send(sim.dataApiUrl, 'POST', path, body);
    expect((await post({})).body).toEqual(
      bad(['Either message or justification must be provided']),
    );
    expect((await post({ message: 'xyz' })).body.message).toEqual([
      'message must be a hex string (optionally 0x-prefixed)',
    ]);
    expect((await post({ message: '0x01', quorumPercentage: 101 })).body.message).toContain(
      'quorumPercentage must not be greater than 100',
    );
    expect(
      (await post({ message: '0x01', quorumPercentage: 80, quorumPercentageBuffer: 30 })).body
        .message,
    ).toEqual(['quorumPercentage plus quorumPercentageBuffer must be at most 100']);
    expect((await post({ justification: 'abcd', quorumPercentageBuffer: 34 })).status).toBe(400); // default quorum 67 + 34 > 100
    expect((await post('{not json')).status).toBe(400);
    const ok = await post({
      justification: '0001abcd',
      quorumPercentage: 50,
      quorumPercentageBuffer: 50,
    });
    expect(ok.status).toBe(201);
    expect(ok.body.signedMessage).toMatch(/^[0-9a-f]+$/);
    expect(
      (await post({ justification: '0001abcd', quorumPercentage: 50, quorumPercentageBuffer: 50 }))
        .body,
    ).toEqual(ok.body);
    expect(
      (await get(sim.dataApiUrl, '/v1/signatureAggregator/mainnet/aggregateSignatures/0xabc'))
        .status,
    ).toBe(400);
    expect(
      (
        await get(
          sim.dataApiUrl,
          `/v1/signatureAggregator/testnet/aggregateSignatures/${sim.world.primary.fuji.stakingTxs[0]!.txHash}`,
        )
      ).status,
    ).toBe(201);
  });

  it('answers 404 for unknown chains, blocks, transactions, contracts and paths', async () => {
    const notFound = { statusCode: 404, error: 'Not Found' };
    expect((await get(sim.dataApiUrl, '/v1/chains/12345/blocks')).body).toMatchObject(notFound);
    expect((await get(sim.dataApiUrl, '/v1/chains/43114/blocks/999999999')).body).toMatchObject(
      notFound,
    );
    expect((await get(sim.dataApiUrl, `/v1/chains/43114/blocks/0x${'ab'.repeat(32)}`)).status).toBe(
      404,
    );
    expect((await get(sim.dataApiUrl, '/v1/chains/43114/blocks/latest')).status).toBe(400);
    expect(
      (await get(sim.dataApiUrl, `/v1/chains/43114/transactions/0x${'cd'.repeat(32)}`)).body,
    ).toMatchObject(notFound);
    expect(
      (await get(sim.dataApiUrl, `/v1/chains/43114/addresses/${sim.world.fixtures.busyAddress}`))
        .status,
    ).toBe(404);
    expect((await get(sim.dataApiUrl, '/v1/nothing/here')).body).toMatchObject(notFound);
  });

  it('accepts a blockchain id for chainId and an encoded colon in the path', async () => {
    const byId = await get(
      sim.dataApiUrl,
      `/v1/chains/${sim.world.networks.mainnet.cChainId}/blocks`,
      { pageSize: 1 },
    );
    expect(byId.body.blocks[0].chainId).toBe('43114');
    const a = sim.world.fixtures.busyAddress;
    const encoded = await get(
      sim.dataApiUrl,
      `/v1/chains/43114/addresses/${a.toLowerCase()}/transactions%3AlistErc20`,
      { pageSize: 1 },
    );
    expect(encoded.status).toBe(200);
    expect(encoded.body.transactions).toHaveLength(1);
  });
});
