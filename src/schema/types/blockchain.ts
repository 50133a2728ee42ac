import { PRIMARY_NET_PAGE_SIZE } from '../../loaders/primary-net.js';
import type { BlockchainRaw } from '../../upstream/schemas/primary-net.js';
import { builder } from '../builder.js';
import { pageDocs } from '../connection.js';
import { exposed } from '../expose.js';
import { inNetwork, loadEachInNetwork, type NetworkLoad } from '../node-load.js';
import type { GatewayNetwork } from '../primary-inputs.js';
import { GenesisDataRef } from './blockchain-genesis.js';
import { ChainRef } from './chain.js';
import { byCb58Id, createdList, NetworkNameEnum, NetworkRef } from './network.js';

/**
 * A blockchain on the P-Chain (`listBlockchains`, `getBlockchainById`): the X- and C-Chain of the
 * primary network and every chain a subnet or L1 created. Global id
 * `Blockchain:<network>:<blockchainId>`; federation key `network blockchainId`. Its subnet is added
 * by subnet.ts.
 */
export type BlockchainShape = BlockchainRaw & { network: GatewayNetwork };

export const loadBlockchain: NetworkLoad<BlockchainShape> = inNetwork(
  (ctx, network, blockchainId) => ctx.loaders.primaryNet.blockchain.load({ network, blockchainId }),
);

export const BlockchainRef = builder.loadableNodeRef<BlockchainShape, string>('Blockchain', {
  id: { resolve: (b) => `${b.network}:${b.blockchainId}` },
  load: loadEachInNetwork('blockchain id', loadBlockchain),
});

BlockchainRef.implement({
  description:
    'A blockchain created on the P-Chain: the X-Chain, the C-Chain, or a chain of a subnet or L1.',
  fields: (t) => ({
    network: t.expose('network', {
      type: NetworkNameEnum,
      description: 'The network the blockchain is on.',
    }),
    blockchainId: t.exposeString('blockchainId', { description: 'CB58 id of the blockchain.' }),
    name: t.exposeString('blockchainName', {
      description: 'Name given to the blockchain when it was created.',
    }),
    ...exposed(t, {
      vmId: ['String', 'CB58 id of the virtual machine it runs.'],
      subnetId: ['String', 'CB58 id of the subnet (or L1) that validates it.'],
      createBlockNumber: [
        'BigDecimal',
        'Height of the P-Chain block that created it (decimal string).',
      ],
      createBlockTimestamp: ['Timestamp+Iso', 'When it was created, Unix seconds.'],
      evmChainId: [
        'String?',
        'EVM chain id (decimal string) read from its genesis; null when it has none. May be ' +
          'present for non-EVM chains.',
      ],
    }),
    genesisData: t.field({
      type: GenesisDataRef,
      nullable: true,
      description:
        'Its genesis: parsed for an EVM chain, raw for other VMs; null when the upstream gives ' +
        'none.',
      resolve: (b) =>
        b.genesisData == null
          ? null
          : typeof b.genesisData === 'string'
            ? { raw: b.genesisData }
            : b.genesisData,
    }),
    chain: t.field({
      type: ChainRef,
      nullable: true,
      description:
        'The EVM chain it is, by its EVM chain id, when it has one (null otherwise). Costs no ' +
        'call until a field of the chain info is asked for; a chain the Data API does not ' +
        'index then fails with NOT_FOUND.',
      resolve: (b) => (b.evmChainId ? { chainId: b.evmChainId } : null),
    }),
  }),
});

builder.objectFields(NetworkRef, (t) => ({
  blockchains: createdList(t, {
    type: BlockchainRef,
    description:
      'Every blockchain created on this network (`listBlockchains`), newest first by default.',
    // A list with no loader of its own: the client's request is all it needs.
    list: (ctx, network, sortOrder) =>
      ctx.loaders.pages((api, pageToken) =>
        api.primaryNetApi.listBlockchains(
          network,
          { sortOrder },
          { pageToken, pageSize: PRIMARY_NET_PAGE_SIZE.blockchains },
        ),
      ),
    pageSize: PRIMARY_NET_PAGE_SIZE.blockchains,
    itemKey: (b) => b.blockchainId,
    docs: pageDocs('blockchains', 'A blockchain'),
  }),
  blockchain: byCb58Id(t, {
    type: BlockchainRef,
    argument: 'blockchainId',
    description: 'One blockchain by its CB58 id (`getBlockchainById`)',
    load: loadBlockchain,
  }),
}));
