import type { GatewayContext } from '../../context.js';
import { badInput } from '../../errors.js';
import { UPSTREAM_PAGE_SIZE } from '../../loaders/evm.js';
import type { ChainInfo, EvmBlock, NativeTransaction } from '../../upstream/schemas/evm.js';
import { argTable } from '../arg-table.js';
import { builder } from '../builder.js';
import type { ObjectFields } from '../builder-types.js';
import { isEvmChainId } from '../chain-id.js';
import { pageDocs, resolveTokenConnection } from '../connection.js';
import { exposed, exposedOf, ref, TOKEN_METADATA } from '../expose.js';
import { parseChainId } from '../inputs.js';
import { loadEach } from '../node-load.js';
import { AddressRef, byEvmAddress } from './address.js';
import { BlockRef } from './block.js';
import { NetworkNameEnum } from './network.js';
import { TransactionRef } from './transaction.js';

const ApiFeatureEnum = builder.enumType('ApiFeature', {
  description: 'A Data API feature a chain may have enabled.',
  values: {
    NFT_INDEXING: { value: 'nftIndexing', description: 'NFT metadata indexing.' },
    WEBHOOKS: { value: 'webhooks', description: 'Webhooks on address activity.' },
    TELEPORTER: { value: 'teleporter', description: 'ICM (Teleporter) message indexing.' },
  } as const,
});

export const TransactionStatusEnum = builder.enumType('TransactionStatus', {
  description: 'Filter of the latest-transactions list by receipt status.',
  values: {
    SUCCESS: { value: 'success', description: 'Transactions whose receipt status is success.' },
    FAILED: { value: 'failed', description: 'Transactions that failed (reverted).' },
  } as const,
});

export const NetworkTokenRef = builder
  .objectRef<ChainInfo['networkToken']>('NetworkToken')
  .implement({
    description: "A chain's native gas token.",
    fields: (t) =>
      exposed(t, {
        ...TOKEN_METADATA,
        description: ['String?', 'Description of the token from the Data API; null when none.'],
      }),
  });

/**
 * A chain is either its full info (from a list or a lookup) or just its EVM chain id: `chain(id)` and
 * references cost no upstream call until a field of the chain info is asked for, so a walk over a chain's
 * blocks costs only the block calls. An unknown chain still fails clearly: on its first info field or list.
 */
export type ChainShape = ChainInfo | { chainId: string };

const isInfo = (c: ChainShape): c is ChainInfo => 'chainName' in c;
const infoOf = async (c: ChainShape, ctx: GatewayContext): Promise<ChainInfo> =>
  isInfo(c) ? c : ctx.loaders.evm.chain.load(c.chainId);
/** An EVM chain the Data API indexes (the C-Chain or an L1). Global id: `Chain:<evm chain id>`. */
export const ChainRef = builder.loadableNodeRef<ChainShape, string>('Chain', {
  id: { resolve: (c) => c.chainId, parse: (id) => id },
  load: (ids: string[], ctx) => loadEach(ids, (id) => loadChain(ctx, parseChainId(id, 'id'))),
});

/** A chain the Data API indexes, by its EVM chain id: behind `node(id)` and `_entities`. */
export const loadChain = (ctx: GatewayContext, chainId: string): Promise<ChainInfo> =>
  ctx.loaders.evm.chain.load(chainId);

/** The chain a value on one chain (`chainId`) is on; its info loads only when a field of it is asked for. */
export const chainOf = <S extends { chainId: string }>(t: ObjectFields<S>) => ({
  chain: t.field({
    type: ChainRef,
    description: 'The chain (its info loads only when asked for).',
    resolve: (x) => ({ chainId: x.chainId }),
  }),
});

ChainRef.implement({
  description: 'An EVM chain indexed by the Data API: the C-Chain or an Avalanche L1.',
  fields: (t) => ({
    chainId: t.exposeString('chainId', {
      description: 'The EVM chain id, a decimal string (e.g. "43114").',
    }),
    name: t.string({
      resolve: async (c, _a, ctx) => (await infoOf(c, ctx)).chainName,
      description: 'Chain name, e.g. "Avalanche (C-Chain)".',
    }),
    ...exposedOf(t, infoOf, {
      description: ['String', 'Description of the chain from the Data API.'],
      status: [
        'String',
        'OK, or UNAVAILABLE while the chain nodes are down (requests may then give 503).',
      ],
      vmName: ['String', 'Name of the chain\'s virtual machine, e.g. "EVM".'],
      vmId: ['String?', 'CB58 id of the virtual machine; null when the upstream does not say.'],
      subnetId: [
        'String?',
        'CB58 id of the subnet that validates the chain; null when the upstream does not say.',
      ],
      platformChainId: ['String?', 'The CB58 blockchain id on the P-Chain.'],
      isTestnet: ['Boolean', 'True for a test network chain (e.g. Fuji).'],
      rpcUrl: ['String', 'Public JSON-RPC URL of the chain.'],
      wsUrl: ['String?', 'Public websocket URL of the chain; null when none.'],
      explorerUrl: ['String?', 'Block explorer URL; null when none.'],
    }),
    logoUri: t.string({
      nullable: true,
      description: "URL of the chain's logo; null when none.",
      resolve: async (c, _a, ctx) => (await infoOf(c, ctx)).chainLogoUri ?? null,
    }),
    isPrivate: t.boolean({
      nullable: true,
      description: 'True for a private chain; null when the upstream does not say.',
      resolve: async (c, _a, ctx) => (await infoOf(c, ctx)).private ?? null,
    }),
    multicallAddress: t.string({
      nullable: true,
      description:
        'Address (lower-case 0x-hex) of the Multicall contract on this chain; null when none is known.',
      resolve: async (c, _a, ctx) =>
        (await infoOf(c, ctx)).utilityAddresses?.multicall?.toLowerCase() ?? null,
    }),
    enabledFeatures: t.stringList({
      resolve: async (c, _a, ctx) => (await infoOf(c, ctx)).enabledFeatures ?? [],
      description:
        'Data API features enabled for this chain (e.g. "nftIndexing", "webhooks"); empty when none.',
    }),
    ...exposedOf(t, infoOf, {
      networkToken: ref(NetworkTokenRef, "The chain's native gas token."),
    }),
    blocks: t.connection(
      {
        type: BlockRef,
        nullable: true,
        description: 'The latest indexed blocks, newest first. Forward paging only (first/after).',
        resolve: (chain, args, ctx) =>
          resolveTokenConnection<EvmBlock>(args, ctx.connections, {
            pages: ctx.loaders.evm.latestBlocksPage.list({ chainId: chain.chainId }).map((page) => {
              ctx.loaders.evm.primeBlocks(page.items);
              return page;
            }),
            pageSize: UPSTREAM_PAGE_SIZE.latestBlocks,
            itemKey: (b) => b.blockHash,
          }),
      },
      ...pageDocs('latest blocks', 'A block'),
    ),
    transactions: t.connection(
      {
        type: TransactionRef,
        nullable: true,
        description:
          'The latest transactions, newest first, optionally only the successful or the failed ones. Forward paging only (first/after).',
        args: {
          status: t.arg({
            type: TransactionStatusEnum,
            required: false,
            description:
              'Only successful (SUCCESS) or only failed (FAILED) transactions; all when omitted.',
          }),
        },
        resolve: (chain, args, ctx) =>
          resolveTokenConnection<NativeTransaction>(args, ctx.connections, {
            pages: ctx.loaders.evm.latestTransactionsPage.list({
              chainId: chain.chainId,
              status: args.status ?? undefined,
            }),
            pageSize: UPSTREAM_PAGE_SIZE.latestTransactions,
            itemKey: (tx) => tx.txHash,
          }),
      },
      ...pageDocs('latest transactions', 'A transaction'),
    ),
    address: byEvmAddress(t, {
      type: AddressRef,
      description: 'An address on this chain (no upstream call by itself).',
      resolve: (chain, address) => ({ chainId: chain.chainId, address }),
    }),
  }),
});

builder.queryFields((t) => ({
  chains: t.field({
    type: [ChainRef],
    nullable: true,
    description:
      'Every EVM chain the Data API supports (`supportedChains`), optionally only those of a ' +
      'network or with a feature.',
    args: {
      network: t.arg({
        type: NetworkNameEnum,
        required: false,
        description: 'Only chains of this network; every network when omitted.',
      }),
      feature: t.arg({
        type: ApiFeatureEnum,
        required: false,
        description: 'Only chains with this Data API feature enabled.',
      }),
    },
    resolve: async (_root, args, ctx) => {
      const [network, feature] = [args.network ?? undefined, args.feature ?? undefined];
      // Without filters, the same all-chains answer every other reader shares.
      const chains =
        network || feature
          ? await ctx.loaders.tokens.supportedChains.load({ network, feature })
          : await ctx.loaders.evm.chains.load('all');
      for (const c of chains) ctx.loaders.evm.chain.prime(c.chainId, c);
      return chains;
    },
  }),
  chain: t.field({
    type: ChainRef,
    nullable: true,
    description: 'One EVM chain, by EVM chain id (e.g. "43114") or blockchain id.',
    args: argTable(t.arg, {
      id: ['String!', 'EVM chain id (decimal, e.g. "43114") or the chain\'s CB58 blockchain id.'],
    }),
    resolve: async (_root, { id }, ctx) => {
      if (!id) throw badInput('id', 'id must not be empty');
      const chainId = parseChainId(id, 'id');
      // A decimal EVM chain id is already the natural key; a blockchain id is looked up to find it.
      return isEvmChainId(chainId) ? { chainId } : ctx.loaders.evm.chain.load(chainId);
    },
  }),
}));
