import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type RunningSimulator, startSimulator } from '@avalanche-gateway/simulator';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSpec, SPEC_DIR } from '../support/specs.js';

/**
 * Every simulated Data API route, validated against the real OpenAPI response schema
 * (data-api.openapi.json in SPEC_DIR, test/support/specs.ts).
 */

type Spec = {
  paths: Record<
    string,
    Record<
      string,
      {
        operationId: string;
        responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
      }
    >
  >;
  components: unknown;
};
const spec = JSON.parse(readSpec('data-api.openapi.json')) as Spec;

const ajv = new Ajv2020.default({ strict: false, allErrors: true, validateSchema: false });
addFormats.default(ajv);
ajv.addSchema({ $id: 'data-api.json', components: nullableToAnyOf(spec.components) });

/** OpenAPI 3.0's `nullable` without a `type` (ajv refuses it) → an explicit `anyOf` with null. */
function nullableToAnyOf(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(nullableToAnyOf);
  if (node === null || typeof node !== 'object') return node;
  const o = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, nullableToAnyOf(v)]));
  if (o.nullable === true && o.type === undefined) {
    const { nullable: _drop, ...rest } = o;
    return { anyOf: [{ type: 'null' }, rest] };
  }
  return o;
}

const rebase = (schema: unknown) =>
  JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"data-api.json#/components/'));

function responseSchema(operationId: string, status: number): unknown {
  for (const ops of Object.values(spec.paths)) {
    for (const op of Object.values(ops)) {
      if (op.operationId === operationId) {
        const schema = op.responses[String(status)]?.content?.['application/json']?.schema;
        if (!schema) throw new Error(`${operationId} has no ${status} JSON schema`);
        return rebase(schema);
      }
    }
  }
  throw new Error(`no operation ${operationId} in the spec`);
}

const validators = new Map<string, ReturnType<typeof ajv.compile>>();
function expectValid(schema: unknown, body: unknown, label: string) {
  const key = JSON.stringify(schema);
  let v = validators.get(key);
  if (!v) {
    v = ajv.compile(schema as object);
    validators.set(key, v);
  }
  const ok = v(body);
  if (!ok)
    throw new Error(
      `${label}: ${ajv.errorsText(v.errors, { separator: '\n' })}\n${JSON.stringify(body).slice(0, 600)}`,
    );
}

let sim: RunningSimulator;
const covered = new Set<string>();

async function call(
  operationId: string,
  path: string,
  init: {
    query?: Record<string, string>;
    method?: string;
    body?: unknown;
    status?: number;
    schema?: (body: any) => unknown;
  } = {},
) {
  const u = new URL(sim.dataApiUrl + path);
  for (const [k, v] of Object.entries(init.query ?? {})) u.searchParams.set(k, v);
  const res = await fetch(u, {
    method: init.method ?? 'GET',
    ...(init.body !== undefined
      ? { body: JSON.stringify(init.body), headers: { 'content-type': 'application/json' } }
      : {}),
  });
  const body = await res.json();
  const status =
    init.status ??
    (init.method === 'POST' || operationId === 'getAggregatedSignatures' ? 201 : 200);
  expect(res.status, `${operationId} ${path}: ${JSON.stringify(body).slice(0, 300)}`).toBe(status);
  expectValid(
    init.schema ? init.schema(body) : responseSchema(operationId, status),
    body,
    `${operationId} ${path}`,
  );
  covered.add(operationId);
  return body as any;
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0, vary: process.env.SIM_VARY, specDir: SPEC_DIR });
});
afterAll(async () => {
  await sim?.close();
});

describe('Data API responses validate against the real OpenAPI schemas', () => {
  it('chains, blocks and transactions', async () => {
    const f = sim.world.fixtures;
    await call('supportedChains', '/v1/chains');
    await call('supportedChains', '/v1/chains', { query: { network: 'fuji' } });
    for (const id of ['43114', '43113', f.l1ChainId, sim.world.networks.mainnet.cChainId])
      await call('getChainInfo', `/v1/chains/${id}`);
    await call('getLatestBlocks', '/v1/chains/43114/blocks', { query: { pageSize: '100' } });
    await call('getBlock', `/v1/chains/43114/blocks/${f.blockNumber}`);
    await call('getBlock', `/v1/chains/43114/blocks/${f.blockHash}`);
    await call('getTransactionsForBlock', `/v1/chains/43114/blocks/${f.blockNumber}/transactions`);
    await call('getTransactionsForBlock', `/v1/chains/43114/blocks/${f.blockHash}/transactions`, {
      query: { pageSize: '3' },
    });
    await call('listLatestTransactions', '/v1/chains/43114/transactions', {
      query: { pageSize: '100' },
    });
    await call('listLatestTransactions', '/v1/chains/43114/transactions', {
      query: { status: 'failed' },
    });
    const chain = sim.world.chain('43114')!;
    const samples = [
      f.txHash,
      f.nativeTxHash,
      chain.transactions.find((t) => t.erc721.length)!.hash,
      chain.transactions.find((t) => t.erc1155.length)!.hash,
      chain.transactions.find((t) => t.createdContract)!.hash,
      chain.transactions.find((t) => t.icm?.direction === 'SOURCE_TRANSACTION')!.hash,
      chain.transactions.find((t) => t.icm?.direction === 'DESTINATION_TRANSACTION')!.hash,
      chain.transactions.find((t) => t.status === 0)!.hash,
    ];
    for (const h of samples) await call('getTransaction', `/v1/chains/43114/transactions/${h}`);
    const l1Tx = sim.world.chain(f.l1ChainId)!.transactions[0]!;
    await call('getTransaction', `/v1/chains/${f.l1ChainId}/transactions/${l1Tx.hash}`);
  });

  it('address lists, balance and contract metadata', async () => {
    const f = sim.world.fixtures;
    const a = `/v1/chains/43114/addresses/${f.busyAddress}`;
    await call('listTransactions', `${a}/transactions`, { query: { pageSize: '100' } });
    await call('listTransactions', `${a}/transactions`, {
      query: { sortOrder: 'asc', startBlock: String(f.blockNumber) },
    });
    await call('listNativeTransactions', `${a}/transactions:listNative`, {
      query: { pageSize: '100' },
    });
    await call('listErc20Transactions', `${a}/transactions:listErc20`, {
      query: { pageSize: '100' },
    });
    await call('listErc721Transactions', `${a}/transactions:listErc721`, {
      query: { pageSize: '100' },
    });
    await call('listErc1155Transactions', `${a}/transactions:listErc1155`, {
      query: { pageSize: '100' },
    });
    await call('listInternalTransactions', `${a}/transactions:listInternals`, {
      query: { pageSize: '100' },
    });
    await call('getNativeBalance', `${a}/balances:getNative`, { query: { currency: 'eur' } });
    await call(
      'getNativeBalance',
      `/v1/chains/${f.l1ChainId}/addresses/${f.busyAddress}/balances:getNative`,
    );
    for (const c of Object.values(f.contracts))
      await call('getContractMetadata', `/v1/chains/43114/addresses/${c}`);
  });

  it('primary network, validators, ICM and signature aggregation', async () => {
    const f = sim.world.fixtures;
    await call(
      'listActivePrimaryNetworkStakingTransactions',
      '/v1/networks/mainnet/blockchains/p-chain/transactions:listStaking',
      { query: { pageSize: '100' } },
    );
    await call(
      'listActivePrimaryNetworkStakingTransactions',
      '/v1/networks/fuji/blockchains/11111111111111111111111111111111LpoYY/transactions:listStaking',
    );
    const variants: Record<string, string> = {
      'p-chain': 'ListPChainBalancesResponse',
      'x-chain': 'ListXChainBalancesResponse',
      'c-chain': 'ListCChainAtomicBalancesResponse',
    };
    for (const chain of Object.keys(variants)) {
      // The spec's oneOf is ambiguous (a P-Chain answer also satisfies the C-Chain variant, so no real
      // answer can match exactly one) and has no discriminator: pick the variant by chainInfo.chainName,
      // as clients must, and validate against that variant.
      const body = await call(
        'getBalancesByAddresses',
        `/v1/networks/mainnet/blockchains/${chain}/balances`,
        {
          query: { addresses: `P-${f.pChainAddress},${f.xChainAddress}` },
          schema: (b) => ({
            $ref: `data-api.json#/components/schemas/${variants[b.chainInfo.chainName]}`,
          }),
        },
      );
      expect(body.chainInfo.chainName).toBe(chain);
    }
    await call(
      'getSingleValidatorDetails',
      `/v1/networks/mainnet/validators/${sim.world.selfNodeId}`,
      { query: { pageSize: '100' } },
    );
    const pending = sim.world.primary.mainnet.validators.find((v) => v.status === 'pending')!;
    await call('getSingleValidatorDetails', `/v1/networks/mainnet/validators/${pending.nodeId}`);
    await call('listL1Validators', '/v1/networks/mainnet/l1Validators', {
      query: { pageSize: '100', includeInactiveL1Validators: 'true' },
    });
    const byStatus = new Set<string>();
    for (const addr of [f.icmAddress, ...f.busyAddresses]) {
      const body = await call('listIcmMessagesByAddress', `/v1/icm/addresses/${addr}/messages`, {
        query: { pageSize: '100' },
      });
      for (const m of body.messages) byStatus.add(m.status);
    }
    expect([...byStatus].sort()).toEqual(['delivered', 'delivered_source_not_indexed', 'pending']);
    await call('getIcmMessage', `/v1/icm/messages/${f.icmMessageId}`);
    // getTxByHash answers a oneOf of P/X/C shapes; the world's P-Chain txs take the PChainTransaction one.
    const stakingTx = sim.world.primary.mainnet.stakingTxs[0]!;
    await call(
      'getTxByHash',
      `/v1/networks/mainnet/blockchains/p-chain/transactions/${stakingTx.txHash}`,
      {
        schema: () => ({ $ref: 'data-api.json#/components/schemas/PChainTransaction' }),
      },
    );
    await call(
      'listLatestPrimaryNetworkTransactions',
      '/v1/networks/mainnet/blockchains/p-chain/transactions',
      {
        query: { pageSize: '100' },
        schema: () => ({
          $ref: 'data-api.json#/components/schemas/ListPChainTransactionsResponse',
        }),
      },
    );
    // The X-Chain and C-Chain members of the same routes, each against its own shape; every member of
    // each oneOf is reached (linear and DAG-era X-Chain txs, C-Chain exports and imports).
    const member = (name: string) => () => ({ $ref: `data-api.json#/components/schemas/${name}` });
    const xShapes = new Set<string>();
    const xTxs: any[] = [];
    let xToken: string | undefined;
    do {
      const page = await call(
        'listLatestPrimaryNetworkTransactions',
        '/v1/networks/mainnet/blockchains/x-chain/transactions',
        {
          query: { pageSize: '100', ...(xToken ? { pageToken: xToken } : {}) },
          schema: member('ListXChainTransactionsResponse'),
        },
      );
      xTxs.push(...page.transactions);
      xToken = page.nextPageToken;
    } while (xToken);
    for (const tx of [xTxs[0], xTxs.at(-1)]) {
      const shape = 'vertices' in tx ? 'XChainNonLinearTransaction' : 'XChainLinearTransaction';
      xShapes.add(shape);
      await call(
        'getTxByHash',
        `/v1/networks/mainnet/blockchains/x-chain/transactions/${tx.txHash}`,
        { schema: member(shape) },
      );
    }
    expect([...xShapes].sort()).toEqual(['XChainLinearTransaction', 'XChainNonLinearTransaction']);
    const cList = await call(
      'listLatestPrimaryNetworkTransactions',
      '/v1/networks/mainnet/blockchains/c-chain/transactions',
      { query: { pageSize: '100' }, schema: member('ListCChainAtomicTransactionsResponse') },
    );
    const cShapes = new Set<string>();
    for (const tx of cList.transactions) {
      const shape = 'evmInputs' in tx ? 'CChainExportTransaction' : 'CChainImportTransaction';
      if (cShapes.has(shape)) continue;
      cShapes.add(shape);
      await call(
        'getTxByHash',
        `/v1/networks/mainnet/blockchains/c-chain/transactions/${tx.txHash}`,
        { schema: member(shape) },
      );
    }
    expect([...cShapes].sort()).toEqual(['CChainExportTransaction', 'CChainImportTransaction']);
    const avax = sim.world.primary.mainnet.info.avaxAssetId;
    await call(
      'listAssetTransactions',
      `/v1/networks/mainnet/blockchains/x-chain/assets/${avax}/transactions`,
      { query: { pageSize: '100', txTypes: 'BaseTx' } },
    );
    const pBlocks = await call(
      'listLatestPrimaryNetworkBlocks',
      '/v1/networks/mainnet/blockchains/p-chain/blocks',
      { query: { pageSize: '100' } },
    );
    await call(
      'getBlockById',
      `/v1/networks/mainnet/blockchains/p-chain/blocks/${pBlocks.blocks[0].blockHash}`,
    );
    const proposer = pBlocks.blocks[0].proposerDetails.proposerNodeId;
    await call(
      'listPrimaryNetworkBlocksByNodeId',
      `/v1/networks/mainnet/blockchains/p-chain/nodes/${proposer}/blocks`,
    );
    const xv = await call(
      'listLatestXChainVertices',
      '/v1/networks/mainnet/blockchains/x-chain/vertices',
      { query: { pageSize: '100' } },
    );
    await call(
      'getVertexByHash',
      `/v1/networks/fuji/blockchains/x-chain/vertices/${sim.world.primary.fuji.xChain.blocks[0]!.id}`,
    );
    await call(
      'getVertexByHeight',
      '/v1/networks/mainnet/blockchains/x-chain/vertices:listByHeight',
      {
        query: { vertexHeight: String(xv.vertices[0].vertexHeight), sortOrder: 'asc' },
      },
    );
    for (const a of sim.world.primary.mainnet.xChain.assets) {
      await call('getAssetDetails', `/v1/networks/mainnet/blockchains/x-chain/assets/${a.assetId}`);
    }
    await call('aggregateSignatures', '/v1/signatureAggregator/mainnet/aggregateSignatures', {
      method: 'POST',
      body: { message: '0xabcdef', quorumPercentage: 67 },
    });
    await call(
      'getAggregatedSignatures',
      `/v1/signatureAggregator/fuji/aggregateSignatures/${sim.world.primary.fuji.stakingTxs[0]!.txHash}`,
    );
  });

  it('portfolio, token, deployment, cross-chain and global ICM routes', async () => {
    const f = sim.world.fixtures;
    const a = `/v1/chains/43114/addresses/${f.busyAddress}`;
    const chain = sim.world.chain('43114')!;
    await call('listErc20Balances', `${a}/balances:listErc20`, {
      query: { pageSize: '500', currency: 'eur', filterSpamTokens: 'false' },
    });
    await call(
      'listErc20Balances',
      `/v1/chains/${f.l1ChainId}/addresses/${f.busyAddress}/balances:listErc20`,
      { query: { contractAddresses: f.contracts.erc20 } },
    );
    await call('listErc721Balances', `${a}/balances:listErc721`, { query: { pageSize: '500' } });
    await call('listErc1155Balances', `${a}/balances:listErc1155`, {
      query: { pageSize: '5', blockNumber: String(f.blockNumber) },
    });
    const collectibles = await call('listCollectibleBalances', `${a}/balances:listCollectibles`, {
      query: { pageSize: '500' },
    });
    expect(
      new Set(collectibles.collectibleBalances.map((b: { ercType: string }) => b.ercType)),
    ).toEqual(new Set(['ERC-721', 'ERC-1155']));
    await call('listAddressChains', `/v1/address/${f.busyAddress}/chains`);
    for (const c of [f.contracts.erc20, f.contracts.erc721, f.contracts.erc1155]) {
      await call('listTransfers', `/v1/chains/43114/tokens/${c}/transfers`, {
        query: { pageSize: '100', startBlock: String(f.blockNumber - 100) },
      });
    }
    for (const c of [f.contracts.erc721, f.contracts.erc1155]) {
      const body = await call('listTokens', `/v1/chains/43114/nfts/collections/${c}/tokens`, {
        query: { pageSize: '100' },
      });
      await call(
        'getTokenDetails',
        `/v1/chains/43114/nfts/collections/${c}/tokens/${body.tokens[0].tokenId}`,
      );
    }
    const deployment = chain.transactions.find((t) => t.createdContract)!;
    await call(
      'listContractDeployments',
      `/v1/chains/43114/contracts/${deployment.from}/deployments`,
      { query: { pageSize: '100' } },
    );
    await call(
      'getDeploymentTransaction',
      `/v1/chains/43114/contracts/${deployment.createdContract}/transactions:getDeployment`,
      { query: { currency: 'gbp' } },
    );
    await call('listLatestBlocksAllChains', '/v1/blocks', { query: { pageSize: '100' } });
    await call('listLatestBlocksAllChains', '/v1/blocks', { query: { network: 'fuji' } });
    await call('listLatestTransactionsAllChains', '/v1/transactions', {
      query: { pageSize: '100', status: 'success' },
    });
    await call('listIcmMessages', '/v1/icm/messages', { query: { pageSize: '100' } });
    await call('listIcmMessages', '/v1/icm/messages', {
      query: { sourceBlockchainId: '43114', network: 'mainnet' },
    });
    await call('supportedChains', '/v1/chains', { query: { feature: 'nftIndexing' } });
    // A misnamed filter is refused, never ignored (the gateway's names are checked against the spec apart).
    await call('listErc20Balances', `${a}/balances:listErc20`, {
      query: { contractAddress: f.contracts.erc20 },
      status: 400,
    });
    await call('listIcmMessages', '/v1/icm/messages', {
      query: { sourceChainId: '43114' },
      status: 400,
    });
  });

  it('webhooks: the operations, the shared secret, and a signed address_activity delivery', async () => {
    const received: { body: string; signature: string }[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push({ body, signature: String(req.headers['x-signature']) });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    try {
      const chain = sim.world.chain('43114')!;
      const busy = sim.world.fixtures.busyAddresses[0]!;
      const created = await call('createWebhook', '/v1/webhooks', {
        method: 'POST',
        body: {
          eventType: 'address_activity',
          url: hookUrl,
          chainId: '43114',
          metadata: { addresses: [busy] },
        },
        schema: () => rebase({ $ref: '#/components/schemas/EVMAddressActivityResponse' }),
      });
      const id = created.id as string;
      await call('createWebhook', '/v1/webhooks', {
        method: 'POST',
        body: { url: 'x' },
        status: 400,
      });
      await call('listWebhooks', '/v1/webhooks', { query: { status: 'active' } });
      const one = {
        schema: () => rebase({ $ref: '#/components/schemas/EVMAddressActivityResponse' }),
      };
      await call('getWebhook', `/v1/webhooks/${id}`, one);
      await call('getWebhook', '/v1/webhooks/nope', { status: 404 });
      await call('updateWebhook', `/v1/webhooks/${id}`, {
        method: 'PATCH',
        body: { name: 'n' },
        ...one,
      });
      const other = `0x${'12'.repeat(20)}`;
      await call('addAddressesToWebhook', `/v1/webhooks/${id}/addresses`, {
        method: 'PATCH',
        body: { addresses: [other] },
      });
      const listed = await call('getAddressesFromWebhook', `/v1/webhooks/${id}/addresses`);
      expect(listed.totalAddresses).toBe(2);
      await call('removeAddressesFromWebhook', `/v1/webhooks/${id}/addresses`, {
        method: 'DELETE',
        body: { addresses: [other] },
      });
      const { secret } = await call('getSharedSecret', '/v1/webhooks:getSharedSecret');
      // Blocks land: one delivery per transaction touching the address, signed with the secret.
      const added = sim.world.advance('43114', 8);
      const sent = await sim.webhooks.deliverBlocks('43114', added);
      expect(sent.length).toBeGreaterThan(0);
      expect(received).toHaveLength(sent.length);
      const payload = rebase({ $ref: '#/components/schemas/WebhookAddressActivityResponse' });
      for (const r of received) {
        expect(r.signature).toBe(createHmac('sha256', secret).update(r.body).digest('base64'));
        expectValid(payload, JSON.parse(r.body), 'address_activity delivery');
        const tx = JSON.parse(r.body).event.transaction;
        expect(chain.blockTxs(chain.block(Number(tx.blockNumber))!).map((t) => t.hash)).toContain(
          tx.txHash,
        );
      }
      const rotated = await call(
        'generateOrRotateSharedSecret',
        '/v1/webhooks:generateOrRotateSharedSecret',
        {
          method: 'POST',
        },
      );
      expect(rotated.secret).not.toBe(secret);
      await call('deactivateWebhook', `/v1/webhooks/${id}`, { method: 'DELETE', ...one });
      expect(await sim.webhooks.deliverBlocks('43114', added)).toEqual([]);
    } finally {
      receiver.close();
    }
  });

  it('error bodies match the spec', async () => {
    await call('getLatestBlocks', '/v1/chains/43114/blocks', {
      query: { pageSize: '0' },
      status: 400,
    });
    await call('getBlock', '/v1/chains/43114/blocks/1', { status: 404 });
    await call('getChainInfo', '/v1/chains/1', { status: 404 });
    await call('listTransactions', '/v1/chains/43114/addresses/0x123/transactions', {
      status: 400,
    });
    await call('aggregateSignatures', '/v1/signatureAggregator/mainnet/aggregateSignatures', {
      method: 'POST',
      body: {},
      status: 400,
    });
    const keyed = await startSimulator({
      port: 0,
      vary: process.env.SIM_VARY,
      specDir: SPEC_DIR,
      apiKeys: { revoked: ['old'], unprivileged: ['basic'] },
      rateLimitPerMinute: 1,
    });
    try {
      const get = (key?: string) =>
        fetch(`${keyed.dataApiUrl}/v1/chains`, {
          headers: key ? { 'x-glacier-api-key': key } : {},
        });
      for (const [key, status] of [
        ['old', 401],
        ['basic', 403],
        [undefined, 200],
        [undefined, 429],
      ] as const) {
        const res = await get(key);
        expect(res.status).toBe(status);
        expectValid(
          responseSchema('supportedChains', status),
          await res.json(),
          `status ${status}`,
        );
      }
    } finally {
      await keyed.close();
    }
  });

  it('covers every simulated Data API operation', () => {
    expect([...covered].sort()).toEqual(
      [
        'supportedChains',
        'getChainInfo',
        'getLatestBlocks',
        'getBlock',
        'getTransactionsForBlock',
        'getTransaction',
        'listLatestTransactions',
        'listTransactions',
        'listNativeTransactions',
        'listErc20Transactions',
        'listErc721Transactions',
        'listErc1155Transactions',
        'listInternalTransactions',
        'getNativeBalance',
        'getContractMetadata',
        'listActivePrimaryNetworkStakingTransactions',
        'getBalancesByAddresses',
        'getSingleValidatorDetails',
        'listL1Validators',
        'listIcmMessagesByAddress',
        'aggregateSignatures',
        'getAggregatedSignatures',
        'getIcmMessage',
        'getTxByHash',
        'listLatestPrimaryNetworkTransactions',
        'listLatestPrimaryNetworkBlocks',
        'getBlockById',
        'listPrimaryNetworkBlocksByNodeId',
        'listLatestXChainVertices',
        'getVertexByHash',
        'getVertexByHeight',
        'getAssetDetails',
        'listAssetTransactions',
        'listErc20Balances',
        'listErc721Balances',
        'listErc1155Balances',
        'listCollectibleBalances',
        'listAddressChains',
        'listTransfers',
        'listTokens',
        'getTokenDetails',
        'listContractDeployments',
        'getDeploymentTransaction',
        'listLatestBlocksAllChains',
        'listLatestTransactionsAllChains',
        'listIcmMessages',
        'createWebhook',
        'listWebhooks',
        'getWebhook',
        'updateWebhook',
        'deactivateWebhook',
        'addAddressesToWebhook',
        'removeAddressesFromWebhook',
        'getAddressesFromWebhook',
        'getSharedSecret',
        'generateOrRotateSharedSecret',
      ].sort(),
    );
  });
});
