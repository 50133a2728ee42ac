import { brandWithType } from '@pothos/core';
import type { ContractMetadata } from '../../upstream/schemas/contracts.js';
import type { CurrencyCode, EvmBlock, NativeTransaction } from '../../upstream/schemas/evm.js';
import type { NftToken, TokenTransfer } from '../../upstream/schemas/portfolio.js';
import type { GatewayNetwork } from '../../upstream/schemas/primary.js';
import { given, registerArgumentCheck } from '../argument-checks.js';
import { builder } from '../builder.js';
import { resolveTokenConnection } from '../connection.js';
import { badInput } from '../errors.js';
import { parseBlockRange } from '../inputs.js';
import { AddressRef } from './address.js';
import { BlockRef } from './block.js';
import { TransactionStatusEnum } from './chain.js';
import { ContractRef, Erc721ContractRef, Erc1155ContractRef } from './contract.js';
import { CurrencyCodeEnum } from './money.js';
import { NetworkNameEnum } from './network.js';
import { Erc721TokenRef, Erc1155TokenRef } from './token.js';
import { TransactionRef } from './transaction.js';
import { TokenTransferRef } from './transfer.js';

/**
 * Token lists and links: a contract's transfers (`listTransfers`), an NFT collection's tokens
 * (`listTokens`) and one token (`getTokenDetails`), the contracts an address deployed
 * (`listContractDeployments`) and a contract's deployment transaction
 * (`getDeploymentTransaction`); at the root, the newest blocks and transactions of every chain
 * (`listLatestBlocksAllChains`, `listLatestTransactionsAllChains`), which no single chain owns.
 */

const TRANSFER_TYPE = {
  erc20Token: 'Erc20Transfer',
  erc721Token: 'Erc721Transfer',
  erc1155Token: 'Erc1155Transfer',
} as const;
const typeOfTransfer = (x: TokenTransfer) =>
  'erc20Token' in x
    ? TRANSFER_TYPE.erc20Token
    : 'erc721Token' in x
      ? TRANSFER_TYPE.erc721Token
      : TRANSFER_TYPE.erc1155Token;
const transferKey = (x: TokenTransfer) =>
  `${x.txHash}:${x.logIndex}:${'erc1155Token' in x ? x.erc1155Token.tokenId : ''}`;

export const NftTokenRef = builder.unionType('NftToken', {
  description: 'One token of an NFT collection: an ERC-721 token or an ERC-1155 token id.',
  types: [Erc721TokenRef, Erc1155TokenRef],
  resolveType: (tok) => (tok.ercType === 'ERC-721' ? Erc721TokenRef : Erc1155TokenRef),
});

const rangeArgs = builder.args((t) => ({
  startBlock: t.field({
    type: 'BigDecimal',
    required: false,
    description: 'First block of the range (inclusive).',
  }),
  endBlock: t.field({
    type: 'BigDecimal',
    required: false,
    description: 'End of the range (exclusive).',
  }),
}));

const TOKEN_ID = /^\d{1,78}$/;
const CONTRACT_TYPES = [
  'Contract',
  'Erc20Contract',
  'Erc721Contract',
  'Erc1155Contract',
  'UnknownContract',
];
const rangeOf = (args: { startBlock?: unknown; endBlock?: unknown }) =>
  parseBlockRange({ startBlock: given(args.startBlock), endBlock: given(args.endBlock) });
const tokenIdOf = (args: { tokenId?: unknown }) => {
  const id = given(args.tokenId);
  if (id === undefined || !TOKEN_ID.test(id))
    throw badInput('tokenId', 'tokenId must be a decimal whole number');
  return id;
};
// Checked before execution too: reaching a contract costs a call, a bad argument below it must not.
registerArgumentCheck(CONTRACT_TYPES, 'transfers', rangeOf);
registerArgumentCheck(['Erc721Contract', 'Erc1155Contract'], 'token', tokenIdOf);

builder.interfaceFields(ContractRef, (t) => ({
  transfers: t.connection(
    {
      type: TokenTransferRef,
      nullable: true,
      description:
        'Every transfer of this token contract, newest first (`listTransfers`), optionally ' +
        'within a block range. Forward paging only.',
      args: rangeArgs,
      resolve: (c, args, ctx) => {
        const range = rangeOf(args);
        return resolveTokenConnection<TokenTransfer>(args, ctx.connections, {
          listKey: [
            'tokenTransfers',
            c.chainId,
            c.address.toLowerCase(),
            range.startBlock ?? '',
            range.endBlock ?? '',
          ].join('|'),
          pageSize: ctx.loaders.tokens.pageSizes.tokenTransfers,
          itemKey: transferKey,
          fetchPage: async (pageToken) => {
            const page = await ctx.loaders.tokens.transfersPage.load({
              chainId: c.chainId,
              address: c.address.toLowerCase(),
              pageToken,
              ...range,
            });
            const items = page.items.map((x) => {
              const item = { ...x };
              brandWithType(item, typeOfTransfer(x) as never);
              return item;
            });
            return { items, nextPageToken: page.nextPageToken };
          },
        });
      },
    },
    { name: 'ContractTransferConnection', description: 'A page of a token contract’s transfers.' },
    { name: 'ContractTransferEdge', description: 'A transfer and its cursor.' },
  ),
  deploymentTransaction: t.field({
    type: TransactionRef,
    nullable: true,
    description: 'The transaction that deployed this contract (`getDeploymentTransaction`).',
    args: {
      currency: t.arg({
        type: CurrencyCodeEnum,
        required: false,
        description: 'Currency of the native token’s prices in the answer (default USD).',
      }),
    },
    resolve: async (c, args, ctx) => {
      const chainId = c.chainId;
      const detail = await ctx.loaders.tokens.deploymentTransaction.load({
        chainId,
        address: c.address.toLowerCase(),
        currency: (args.currency ?? undefined) as CurrencyCode | undefined,
      });
      // The answer is the get-transaction answer: the transaction's own fields need no further call
      // in this request. Only a USD answer stands for it (the get-transaction route prices in USD).
      if ((args.currency ?? 'usd') === 'usd')
        ctx.loaders.evm.transaction.prime(
          { chainId, txHash: detail.nativeTransaction.txHash.toLowerCase() },
          detail,
        );
      return detail.nativeTransaction;
    },
  }),
}));

/** The collection's tokens and one token, on both NFT contract kinds. */
for (const ref of [Erc721ContractRef, Erc1155ContractRef] as const) {
  builder.objectFields(ref as typeof Erc721ContractRef, (t) => ({
    tokens: t.connection(
      {
        type: NftTokenRef,
        nullable: true,
        description:
          'The tokens of this NFT collection (`listTokens`), in the upstream’s order. Forward ' +
          'paging only.',
        resolve: (c, args, ctx) =>
          resolveTokenConnection<NftToken & { chainId: string }>(args, ctx.connections, {
            listKey: `nftTokens|${c.chainId}|${c.address.toLowerCase()}`,
            pageSize: ctx.loaders.tokens.pageSizes.nftTokens,
            itemKey: (tok) => tok.tokenId,
            fetchPage: async (pageToken) => {
              const page = await ctx.loaders.tokens.nftTokensPage.load({
                chainId: c.chainId,
                address: c.address.toLowerCase(),
                pageToken,
              });
              return {
                items: page.items.map((tok) => ({ ...tok, chainId: c.chainId })),
                nextPageToken: page.nextPageToken,
              };
            },
          }),
      },
      {
        name:
          ref === Erc721ContractRef
            ? 'Erc721CollectionTokenConnection'
            : 'Erc1155CollectionTokenConnection',
        description: 'A page of a collection’s tokens.',
      },
      {
        name:
          ref === Erc721ContractRef ? 'Erc721CollectionTokenEdge' : 'Erc1155CollectionTokenEdge',
        description: 'A token of the collection and its cursor.',
      },
    ),
    token: t.field({
      type: NftTokenRef,
      nullable: true,
      description: 'One token of this collection, with its metadata (`getTokenDetails`).',
      args: {
        tokenId: t.arg({
          type: 'BigDecimal',
          required: true,
          description: 'The token id (a decimal whole number).',
        }),
      },
      resolve: async (c, args, ctx) => {
        const tokenId = tokenIdOf(args);
        const tok = await ctx.loaders.tokens.nftToken.load({
          chainId: c.chainId,
          address: c.address.toLowerCase(),
          tokenId,
        });
        return { ...tok, chainId: c.chainId };
      },
    }),
  }));
}

builder.objectFields(AddressRef, (t) => ({
  deployedContracts: t.connection(
    {
      type: ContractRef,
      nullable: true,
      description:
        'Contracts this address deployed on its chain, newest first ' +
        '(`listContractDeployments`). Forward paging only.',
      resolve: (a, args, ctx) =>
        resolveTokenConnection<ContractMetadata>(args, ctx.connections, {
          listKey: `contractDeployments|${a.chainId}|${a.address}`,
          pageSize: ctx.loaders.tokens.pageSizes.contractDeployments,
          itemKey: (c) => c.address.toLowerCase(),
          fetchPage: async (pageToken) => {
            const page = await ctx.loaders.tokens.deploymentsPage.load({
              chainId: a.chainId,
              address: a.address,
              pageToken,
            });
            for (const c of page.items)
              ctx.loaders.evm.contract.prime(
                { chainId: c.chainId, address: c.address.toLowerCase() },
                c,
              );
            return page;
          },
        }),
    },
    { name: 'DeployedContractConnection', description: 'A page of contracts an address deployed.' },
    { name: 'DeployedContractEdge', description: 'A deployed contract and its cursor.' },
  ),
}));

const networkOf = (n: string | null | undefined) => (n ?? undefined) as GatewayNetwork | undefined;
const networkArg = { description: 'Only chains of this network; every network when omitted.' };

builder.queryFields((t) => ({
  latestBlocks: t.connection(
    {
      type: BlockRef,
      nullable: true,
      description:
        'The newest blocks of every EVM chain the Data API indexes, newest first ' +
        '(`listLatestBlocksAllChains`). Forward paging only.',
      args: { network: t.arg({ type: NetworkNameEnum, required: false, ...networkArg }) },
      resolve: (_root, args, ctx) => {
        const network = networkOf(args.network);
        return resolveTokenConnection<EvmBlock>(args, ctx.connections, {
          listKey: `latestBlocksAll|${network ?? ''}`,
          pageSize: ctx.loaders.tokens.pageSizes.latestAllChains,
          itemKey: (b) => `${b.chainId}:${b.blockHash}`,
          fetchPage: async (pageToken) => {
            const page = await ctx.loaders.tokens.latestBlocksPage.load({ network, pageToken });
            ctx.loaders.evm.primeBlocks(page.items);
            return page;
          },
        });
      },
    },
    { name: 'LatestBlockConnection', description: 'A page of the newest blocks across chains.' },
    { name: 'LatestBlockEdge', description: 'A block and its cursor.' },
  ),
  latestTransactions: t.connection(
    {
      type: TransactionRef,
      nullable: true,
      description:
        'The newest transactions of every EVM chain the Data API indexes, newest first ' +
        '(`listLatestTransactionsAllChains`). Forward paging only.',
      args: {
        network: t.arg({ type: NetworkNameEnum, required: false, ...networkArg }),
        status: t.arg({
          type: TransactionStatusEnum,
          required: false,
          description: 'Only successful or only failed transactions; all when omitted.',
        }),
      },
      resolve: (_root, args, ctx) => {
        const network = networkOf(args.network);
        const status = args.status ?? undefined;
        return resolveTokenConnection<NativeTransaction>(args, ctx.connections, {
          listKey: `latestTransactionsAll|${network ?? ''}|${status ?? ''}`,
          pageSize: ctx.loaders.tokens.pageSizes.latestAllChains,
          itemKey: (tx) => `${tx.chainId}:${tx.txHash}`,
          fetchPage: (pageToken) =>
            ctx.loaders.tokens.latestTransactionsPage.load({ network, status, pageToken }),
        });
      },
    },
    {
      name: 'LatestTransactionConnection',
      description: 'A page of the newest transactions across chains.',
    },
    { name: 'LatestTransactionEdge', description: 'A transaction and its cursor.' },
  ),
}));
