import { describe, expect, it } from 'vitest';
import { RESOURCE_CLASS } from '../../src/cache/policy.js';
import {
  boundedTags,
  MAX_TAG_HEADER_BYTES,
  MAX_TAG_LENGTH,
  parentOf,
} from '../../src/cache/surrogate-key-header.js';
import { surrogateKeysOf, TAG_RULES, type TaggedRequest } from '../../src/cache/surrogate-keys.js';
import type { ResourceKind } from '../../src/upstream/resources.js';

/**
 * The tag rules: one row per resource kind (a request as its client builds it, and the tags it must
 * carry; [] for a kind deliberately untagged). A kind added to the upstream layer without a row fails the
 * completeness test below, as it fails the compiler in TAG_RULES.
 */
const A = '0xAbC0000000000000000000000000000000000001';
const a = A.toLowerCase();
const data = (path: string, query: Record<string, unknown> = {}, body?: unknown) => ({
  upstream: 'data-api',
  path,
  query,
  ...(body === undefined ? {} : { body }),
});
const node = (rpc: string) => ({
  upstream: 'node',
  path: '/ext/bc/C/rpc',
  query: { node: 'Main@1a2b3c4d', rpc },
});
const net = '/v1/networks/mainnet';
const nodeSlow = ['node:main'];
const nodeHead = ['node:main:head'];

const TABLE: Record<ResourceKind, [Omit<TaggedRequest, 'resource'>, string[]]> = {
  'data.chains': [data('/v1/chains', { network: 'mainnet' }), ['chains']],
  'data.chain': [data('/v1/chains/43114'), ['chain:43114']],
  'data.latestBlocks': [data('/v1/chains/43114/blocks', { pageSize: 25 }), ['chain:43114:head']],
  'data.block': [data('/v1/chains/43114/blocks/123'), ['block:43114:123']],
  'data.blockTransactions': [data('/v1/chains/43114/blocks/123/transactions'), ['block:43114:123']],
  'data.transaction': [data('/v1/chains/43114/transactions/0xDEAD'), ['tx:43114:0xdead']],
  'data.transactionPrice': [
    data('/v1/chains/43114/transactions/0xdead'),
    ['tx:43114:0xdead', 'chain:43114:head'],
  ],
  'data.latestTransactions': [data('/v1/chains/43114/transactions'), ['chain:43114:head']],
  'data.addressTransactions': [
    data(`/v1/chains/43114/addresses/${A}/transactions`, { pageToken: 't1' }),
    [`address:43114:${a}`],
  ],
  'data.addressNativeTransactions': [
    data(`/v1/chains/43114/addresses/${A}/transactions:listNative`),
    [`address:43114:${a}`],
  ],
  'data.addressErc20Transfers': [
    data(`/v1/chains/43114/addresses/${A}/transactions:listErc20`),
    [`address:43114:${a}`],
  ],
  'data.addressErc721Transfers': [
    data(`/v1/chains/43114/addresses/${A}/transactions:listErc721`),
    [`address:43114:${a}`],
  ],
  'data.addressErc1155Transfers': [
    data(`/v1/chains/43114/addresses/${A}/transactions:listErc1155`),
    [`address:43114:${a}`],
  ],
  'data.addressInternalTransactions': [
    data(`/v1/chains/43114/addresses/${A}/transactions:listInternals`),
    [`address:43114:${a}`],
  ],
  'data.nativeBalance': [
    data(`/v1/chains/43114/addresses/${A}/balances:getNative`),
    [`address:43114:${a}`],
  ],
  'data.erc20Balances': [
    data(`/v1/chains/43114/addresses/${A}/balances:listErc20`),
    [`address:43114:${a}`],
  ],
  'data.erc721Balances': [
    data(`/v1/chains/43114/addresses/${A}/balances:listErc721`),
    [`address:43114:${a}`],
  ],
  'data.erc1155Balances': [
    data(`/v1/chains/43114/addresses/${A}/balances:listErc1155`),
    [`address:43114:${a}`],
  ],
  'data.collectibleBalances': [
    data(`/v1/chains/43114/addresses/${A}/balances:listCollectibles`),
    [`address:43114:${a}`],
  ],
  'data.contract': [data(`/v1/chains/43114/addresses/${A}`), [`contract:43114:${a}`]],
  'data.tokenTransfers': [data(`/v1/chains/43114/tokens/${A}/transfers`), [`address:43114:${a}`]],
  'data.nftTokens': [data(`/v1/chains/43114/nfts/collections/${A}/tokens`), [`address:43114:${a}`]],
  'data.nftToken': [
    data(`/v1/chains/43114/nfts/collections/${A}/tokens/7`),
    [`address:43114:${a}`],
  ],
  'data.contractDeployments': [
    data(`/v1/chains/43114/contracts/${A}/deployments`),
    [`address:43114:${a}`],
  ],
  'data.deploymentTransaction': [
    data(`/v1/chains/43114/contracts/${A}/transactions:getDeployment`),
    [`contract:43114:${a}`],
  ],
  'data.latestBlocksAllChains': [data('/v1/blocks', { network: 'mainnet' }), ['chains:head']],
  'data.latestTransactionsAllChains': [data('/v1/transactions'), ['chains:head']],
  'data.addressChains': [data(`/v1/address/${A}/chains`), [`address:${a}`]],
  'data.validators': [data(`${net}/validators/NodeID-Abc`), ['validator:mainnet:nodeid-abc']],
  'data.l1Validators': [data(`${net}/l1Validators`), ['network:mainnet:staking']],
  'data.networkValidators': [data(`${net}/validators`), ['network:mainnet:staking']],
  'data.delegators': [data(`${net}/delegators`), ['network:mainnet:staking']],
  'data.pendingRewards': [data(`${net}/rewards:listPending`), ['network:mainnet:staking']],
  'data.historicalRewards': [data(`${net}/rewards`), ['network:mainnet:staking']],
  'data.networkDetails': [data(net), ['network:mainnet:staking']],
  'data.stakingTransactions': [
    data(`${net}/blockchains/p-chain/transactions:listStaking`),
    ['chain:mainnet.p-chain:head'],
  ],
  'data.pChainTransactions': [
    data(`${net}/blockchains/p-chain/transactions`),
    ['chain:mainnet.p-chain:head'],
  ],
  'data.pChainBlocks': [
    data(`${net}/blockchains/p-chain/nodes/NodeID-Abc/blocks`),
    ['chain:mainnet.p-chain:head'],
  ],
  'data.xChainVertices': [
    data(`${net}/blockchains/x-chain/vertices:listByHeight`),
    ['chain:mainnet.x-chain:head'],
  ],
  'data.xChainTransactions': [
    data(`${net}/blockchains/x-chain/transactions`),
    ['chain:mainnet.x-chain:head'],
  ],
  // The primary network's C-Chain shares its EVM chain's scope: one block purge reaches both.
  'data.cChainTransactions': [
    data(`${net}/blockchains/c-chain/transactions`),
    ['chain:43114:head'],
  ],
  'data.assetTransactions': [
    data(`${net}/blockchains/x-chain/assets/FvwEAh/transactions`),
    ['chain:mainnet.x-chain:head'],
  ],
  'data.pChainBlock': [
    data(`${net}/blockchains/p-chain/blocks/2Xyz`),
    ['block:mainnet.p-chain:2xyz'],
  ],
  'data.xChainVertex': [
    data(`${net}/blockchains/x-chain/vertices/Vx1`),
    ['block:mainnet.x-chain:vx1'],
  ],
  'data.xChainAssetDetails': [
    data(`${net}/blockchains/x-chain/assets/FvwEAh`),
    ['asset:mainnet.x-chain:fvweah'],
  ],
  'data.pChainTransaction': [
    data(`${net}/blockchains/p-chain/transactions/Tx1`),
    ['tx:mainnet.p-chain:tx1'],
  ],
  'data.xChainTransaction': [
    data(`${net}/blockchains/x-chain/transactions/Tx2`),
    ['tx:mainnet.x-chain:tx2'],
  ],
  'data.cChainTransaction': [
    data('/v1/networks/fuji/blockchains/c-chain/transactions/Tx3'),
    ['tx:43113:tx3'],
  ],
  'data.primaryBalances': [
    data(`${net}/blockchains/p-chain/balances`, { addresses: 'avax1aa,avax1bb' }),
    ['address:mainnet.p-chain:avax1aa', 'address:mainnet.p-chain:avax1bb'],
  ],
  // Past the URL's length the addresses go in the body (the V2 POST).
  'data.primaryUtxos': [
    data(`${net}/blockchains/x-chain/utxos`, {}, { addresses: 'X-avax1cc' }),
    ['address:mainnet.x-chain:x-avax1cc'],
  ],
  'data.lastActivity': [
    data(`${net}/blockchains/p-chain/lastActivityTimestampByAddresses`, { addresses: 'avax1aa' }),
    ['address:mainnet.p-chain:avax1aa'],
  ],
  'data.addressChainIds': [
    data(`${net}/addresses:listChainIds`, { addresses: 'avax1aa' }),
    ['address:avax1aa'],
  ],
  'data.subnets': [data(`${net}/subnets`), ['network:mainnet:subnets']],
  'data.blockchains': [data(`${net}/blockchains`), ['network:mainnet:subnets']],
  'data.subnet': [data(`${net}/subnets/Sub1`), ['subnet:mainnet:sub1']],
  'data.blockchain': [data(`${net}/blockchains/Chain1`), ['blockchain:mainnet:chain1']],
  'data.avaxSupply': [data('/v1/avax/supply'), ['avax:supply']],
  'data.icmMessages': [data(`/v1/icm/addresses/${A}/messages`), [`icm-address:${a}`]],
  'data.icmMessage': [data('/v1/icm/messages/0xM1'), ['icm:0xm1']],
  'data.icmMessagesAll': [data('/v1/icm/messages'), ['icm:head']],
  'data.signatureAggregation': [data('/v1/signatureAggregator/mainnet/aggregateSignatures'), []],
  'metrics.chainMetric': [data('/v2/chains/43114/metrics/txCount'), ['metrics']],
  'metrics.rollingWindow': [data('/v2/chains/43114/rollingWindowMetrics/txCount'), ['metrics']],
  'metrics.stakingMetric': [data('/v2/networks/mainnet/metrics/validatorCount'), ['metrics']],
  'metrics.chains': [data('/v2/chains'), ['metrics']],
  'metrics.chain': [data('/v2/chains/43114'), ['metrics']],
  'metrics.icmTimeseries': [data('/v2/icm/timeseries'), ['metrics']],
  'metrics.icmSummary': [data('/v2/icm/summary'), ['metrics']],
  'metrics.l1ValidatorFees': [data('/v2/subnets/S/metrics/fees'), ['metrics']],
  'node.info.getNodeID': [node('info.getNodeID'), nodeSlow],
  'node.info.getNodeIP': [node('info.getNodeIP'), nodeSlow],
  'node.info.getNodeVersion': [node('info.getNodeVersion'), nodeSlow],
  'node.info.getNetworkID': [node('info.getNetworkID'), nodeSlow],
  'node.info.getNetworkName': [node('info.getNetworkName'), nodeSlow],
  'node.info.getBlockchainID': [node('info.getBlockchainID'), nodeSlow],
  'node.info.upgrades': [node('info.upgrades'), nodeSlow],
  'node.info.acps': [node('info.acps'), nodeSlow],
  'node.info.getVMs': [node('info.getVMs'), nodeSlow],
  'node.info.uptime': [node('info.uptime'), nodeSlow],
  'node.info.isBootstrapped': [node('info.isBootstrapped'), nodeHead],
  'node.info.peers': [node('info.peers'), nodeHead],
  'node.info.getTxFee': [node('info.getTxFee'), nodeHead],
  'node.avm.getHeight': [node('avm.getHeight'), nodeHead],
  'node.avm.getTxFee': [node('avm.getTxFee'), nodeHead],
  'node.avm.getTxStatus': [node('avm.getTxStatus'), nodeHead],
  'node.avm.getUTXOs': [node('avm.getUTXOs'), nodeHead],
  'node.avm.getBalance': [node('avm.getBalance'), nodeHead],
  'node.avm.getAllBalances': [node('avm.getAllBalances'), nodeHead],
  'node.avm.getBlock': [node('avm.getBlock'), nodeSlow],
  'node.avm.getBlockByHeight': [node('avm.getBlockByHeight'), nodeSlow],
  'node.avm.getTx': [node('avm.getTx'), nodeSlow],
  'node.avm.getAssetDescription': [node('avm.getAssetDescription'), nodeSlow],
  'node.evm.eth_chainId': [node('eth_chainId'), nodeSlow],
  'node.evm.net_version': [node('net_version'), nodeSlow],
  'node.evm.web3_clientVersion': [node('web3_clientVersion'), nodeSlow],
  'node.evm.eth_getChainConfig': [node('eth_getChainConfig'), nodeSlow],
  'node.evm.eth_blockNumber': [node('eth_blockNumber'), nodeHead],
  'node.evm.eth_baseFee': [node('eth_baseFee'), nodeHead],
  'node.evm.eth_maxPriorityFeePerGas': [node('eth_maxPriorityFeePerGas'), nodeHead],
  'node.evm.eth_gasPrice': [node('eth_gasPrice'), nodeHead],
  'node.evm.eth_syncing': [node('eth_syncing'), nodeHead],
  'node.evm.eth_getBalance': [node('eth_getBalance'), nodeHead],
  'node.evm.eth_getTransactionCount': [node('eth_getTransactionCount'), nodeHead],
  'node.evm.state': [node('eth_getBlockByHash'), nodeSlow],
  'node.evm.headState': [node('eth_call'), nodeHead],
  'node.avax.getAtomicTx': [node('avax.getAtomicTx'), nodeSlow],
  'node.avax.getAtomicTxStatus': [node('avax.getAtomicTxStatus'), nodeHead],
  'node.avax.getUTXOs': [node('avax.getUTXOs'), nodeHead],
  'node.admin': [node('admin.memoryProfile'), []],
  'node.issueTx': [node('avax.issueTx'), []],
};

describe('surrogate keys of upstream requests', () => {
  it('every resource kind has a row here and a rule (a new kind needs a decision)', () => {
    const kinds = Object.keys(RESOURCE_CLASS).sort();
    expect(Object.keys(TABLE).sort()).toEqual(kinds);
    expect(Object.keys(TAG_RULES).sort()).toEqual(kinds);
  });

  it.each(Object.entries(TABLE))('%s', (resource, [req, tags]) => {
    expect(surrogateKeysOf({ ...req, resource: resource as ResourceKind })).toEqual(tags);
  });

  it('a kind is untagged only when it is never cached', () => {
    for (const [kind, rule] of Object.entries(TAG_RULES))
      expect(rule === null, kind).toBe(RESOURCE_CLASS[kind as ResourceKind] === 'never');
  });

  it('tags are lower case, with no separator of either header (space or comma) in them', () => {
    const tags = surrogateKeysOf({
      ...data('/v1/chains/43114/addresses/0xA%2Cb c/balances:getNative'),
      resource: 'data.nativeBalance',
    });
    expect(tags).toEqual(['address:43114:0xa%2cb%20c']);
    for (const [resource, [req]] of Object.entries(TABLE))
      for (const t of surrogateKeysOf({ ...req, resource: resource as ResourceKind }))
        expect(t).toMatch(/^[a-z0-9:._~%!*'()-]+$/);
  });
});

describe('the bounded tag header', () => {
  const addresses = (chain: string, n: number) =>
    Array.from({ length: n }, (_, i) => `address:${chain}:0x${i.toString(16).padStart(40, '0')}`);

  it('sorts and deduplicates a list within the cap', () => {
    expect(boundedTags(['tx:1:b', 'block:1:2', 'tx:1:b'])).toEqual(['block:1:2', 'tx:1:b']);
  });

  it('over the cap, collapses the largest groups into their parents until it fits', () => {
    // 400 addresses of one chain (about 21 KB) and a few facts of another chain.
    const tags = [...addresses('43114', 400), 'block:43113:5', 'address:43113:0xaa'];
    const bounded = boundedTags(tags);
    expect(bounded).toEqual(['address:43113:0xaa', 'block:43113:5', 'chain:43114:head']);
    expect(boundedTags(tags, 60)).toEqual([
      'address:43113:0xaa',
      'block:43113:5',
      'chain:43114:head',
    ]);
    expect(boundedTags(tags, 45)).toEqual(['chain:43113', 'chain:43113:head', 'chain:43114:head']);
  });

  it('always fits the header limits, or says it cannot (never truncates)', () => {
    const big = [...addresses('43114', 300), ...addresses('43113', 300), ...addresses('99', 300)];
    const bounded = boundedTags(big) ?? [];
    expect(bounded.join(' ').length).toBeLessThanOrEqual(MAX_TAG_HEADER_BYTES);
    // Two chains' addresses collapse (the largest savings first); what is left fits.
    expect(bounded.filter((t) => t.startsWith('chain:'))).toHaveLength(2);
    expect(bounded.filter((t) => t.startsWith('address:'))).toHaveLength(300);
    // Parents that do not fit either: no header at all (the caller makes the answer no-store).
    const chains = Array.from({ length: 2_000 }, (_, i) => `chain:${i}:head`);
    expect(boundedTags(chains)).toBeUndefined();
  });

  it('a tag longer than a CDN takes becomes its parent', () => {
    const long = `address:43114:0x${'a'.repeat(MAX_TAG_LENGTH)}`;
    expect(boundedTags([long])).toEqual(['chain:43114:head']);
    expect(boundedTags([`chain:${'9'.repeat(MAX_TAG_LENGTH)}`])).toBeUndefined();
  });

  it('every parent is purged by whatever purges its children (or its children are final)', () => {
    expect(parentOf('address:43114:0xa')).toBe('chain:43114:head');
    expect(parentOf('address:0xa')).toBe('chains:head');
    expect(parentOf('block:43114:5')).toBe('chain:43114');
    expect(parentOf('tx:mainnet.p-chain:t')).toBe('chain:mainnet.p-chain');
    expect(parentOf('validator:mainnet:nodeid-a')).toBe('network:mainnet:staking');
    expect(parentOf('subnet:fuji:s')).toBe('network:fuji:subnets');
    expect(parentOf('icm:0xm')).toBe('icm:head');
    expect(parentOf('icm-address:0xa')).toBe('icm:head');
    for (const coarse of ['chain:43114:head', 'chain:43114', 'icm:head', 'metrics', 'node:a:head'])
      expect(parentOf(coarse)).toBe(coarse);
  });
});
