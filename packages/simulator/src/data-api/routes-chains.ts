import type { EvmChainInfo } from '../world/index.js';
import type { Ctx } from './ctx.js';
import type { Route } from './router.js';

/** Supported chains and chain info. */

export function chainInfoJson(c: EvmChainInfo) {
  return {
    chainId: c.chainId,
    status: 'OK' as const,
    chainName: c.chainName,
    description: c.description,
    platformChainId: c.blockchainId,
    subnetId: c.subnetId,
    vmId: c.vmId,
    vmName: 'EVM' as const,
    explorerUrl: c.explorerUrl,
    rpcUrl: c.rpcUrl,
    wsUrl: c.wsUrl,
    isTestnet: c.isTestnet,
    utilityAddresses: { multicall: '0xcA11bde05977b3631167028862bE2a173976CA11' },
    networkToken: { ...c.networkToken },
    chainLogoUri: c.chainLogoUri,
    private: false,
    enabledFeatures: [...c.enabledFeatures],
  };
}

export const chainRoutes: Route<Ctx>[] = [
  {
    method: 'GET',
    template: '/v1/chains',
    handler: (ctx) => {
      ctx.only('network', 'feature');
      const network = ctx.enumOf('network', ['mainnet', 'fuji', 'testnet'] as const);
      const feature = ctx.enumOf('feature', ['nftIndexing', 'webhooks', 'teleporter'] as const);
      ctx.check();
      const chains = ctx.world.chains.filter(
        (c) =>
          (network === undefined || (network === 'mainnet' ? !c.isTestnet : c.isTestnet)) &&
          (feature === undefined || c.enabledFeatures.includes(feature)),
      );
      return { chains: chains.map(chainInfoJson) };
    },
  },
  {
    method: 'GET',
    template: '/v1/chains/:chainId',
    handler: (ctx) => chainInfoJson(ctx.chain().info),
  },
];
