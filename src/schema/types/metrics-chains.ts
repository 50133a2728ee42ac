import type { GatewayContext } from '../../context.js';
import { badInput } from '../../errors.js';
import type { MetricsChain } from '../../upstream/metrics-api-network.js';
import { builder } from '../builder.js';
import { pageDocs, resolveTokenConnection } from '../connection.js';
import { exposed } from '../expose.js';
import { ChainRef } from './chain.js';
import { ChainMetricsRef } from './metrics.js';
import { NetworkRef } from './network.js';

/**
 * The chains the Metrics API reports on (`listChains`, on the network they belong to) and one chain's
 * entry (`getChain`, on `Chain.metrics.info`). Each links to the chain it describes.
 */
const MetricsChainRef = builder.objectRef<MetricsChain>('MetricsChain');

/** A Relay node (id: the EVM chain id), refetched with `getChain`; so the cost model prices `info`. */
builder.node(MetricsChainRef, {
  description: 'A chain the Metrics API keeps series for.',
  id: { resolve: (c) => String(c.evmChainId) },
  loadMany: (ids, ctx) => ids.map((id) => loadMetricsChain(id, ctx)),
  fields: (t) => ({
    evmChainId: t.string({
      description: 'EVM chain id (decimal string).',
      resolve: (c) => String(c.evmChainId),
    }),
    ...exposed(t, {
      chainName: ['String', 'The Metrics API’s alias for it (e.g. "c_chain").'],
      blockchainId: ['String', 'Its blockchain id (CB58).'],
      subnetId: ['String', 'The subnet (L1) it belongs to (CB58).'],
      network: ['String', '"mainnet" or "testnet", as the Metrics API names them.'],
    }),
    chain: t.field({
      type: ChainRef,
      nullable: true,
      description: 'The chain itself (Data API).',
      resolve: (c) => ({ chainId: String(c.evmChainId) }),
    }),
  }),
});

function loadMetricsChain(chainId: string, ctx: GatewayContext): Promise<MetricsChain> {
  if (!/^\d{1,20}$/.test(chainId))
    throw badInput('id', 'A MetricsChain id is an EVM chain id (decimal)');
  return ctx.loaders.metricsNetwork.chain.load(chainId);
}

/** Nominal page size for cursors: `listChains` takes no pageSize (a page is what the upstream sends). */
const CHAINS_PAGE = 100;

builder.objectFields(NetworkRef, (t) => ({
  metricsChains: t.connection(
    {
      type: MetricsChainRef,
      nullable: true,
      description:
        'The chains of this network the Metrics API reports on (`listChains`). Forward only.',
      resolve: (network, args, ctx) => {
        const upstreamNetwork = network.name === 'mainnet' ? 'mainnet' : 'testnet';
        return resolveTokenConnection<MetricsChain>(args, ctx.connections, {
          pages: ctx.loaders.metricsNetwork.chainsPage.list({ network: upstreamNetwork }),
          pageSize: CHAINS_PAGE,
          itemKey: (c) => c.blockchainId,
        });
      },
    },
    ...pageDocs('chains with metrics', 'A chain with metrics'),
  ),
}));

builder.objectFields(ChainMetricsRef, (t) => ({
  info: t.field({
    type: MetricsChainRef,
    nullable: true,
    description:
      'How the Metrics API lists this chain (`getChain`); NOT_FOUND when it keeps no series.',
    resolve: (m, _a, ctx) => loadMetricsChain(m.chainId, ctx),
  }),
}));
