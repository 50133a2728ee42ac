import { brandWithType } from '@pothos/core';
import type { ContractMetadata } from '../../upstream/schemas/contracts.js';
import type { CurrencyCode } from '../../upstream/schemas/evm.js';
import type { TokenTransfer } from '../../upstream/schemas/portfolio.js';
import { given, registerArgumentCheck } from '../argument-checks.js';
import { blockRangeArgs } from '../block-range-args.js';
import { builder } from '../builder.js';
import { pageTypes, resolveTokenConnection } from '../connection.js';
import { parseBlockRange } from '../inputs.js';
import { AddressRef } from './address.js';
import { ContractRef } from './contract.js';
import { CurrencyCodeEnum } from './money.js';
import { TransactionRef } from './transaction.js';
import { TokenTransferRef } from './transfer.js';

/**
 * A contract's lists and links: its transfers (`listTransfers`) and deployment transaction
 * (`getDeploymentTransaction`), and the contracts an address deployed (`listContractDeployments`).
 * An NFT collection's tokens are in nft-collection.ts; the lists across chains in latest-across-chains.ts.
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

const rangeArgs = blockRangeArgs('End of the range (exclusive).');

const CONTRACT_TYPES = [
  'Contract',
  'Erc20Contract',
  'Erc721Contract',
  'Erc1155Contract',
  'UnknownContract',
];
const rangeOf = (args: { startBlock?: unknown; endBlock?: unknown }) =>
  parseBlockRange({ startBlock: given(args.startBlock), endBlock: given(args.endBlock) });
// Checked before execution too: reaching a contract costs a call, a bad argument below it must not.
registerArgumentCheck(CONTRACT_TYPES, 'transfers', rangeOf);

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
          pages: ctx.loaders.tokens.transfersPage
            .list({ chainId: c.chainId, address: c.address.toLowerCase(), ...range })
            .map((page) => {
              const items = page.items.map((x) => {
                const item = { ...x };
                brandWithType(item, typeOfTransfer(x) as never);
                return item;
              });
              return { items, nextPageToken: page.nextPageToken };
            }),
          pageSize: ctx.loaders.tokens.pageSizes.tokenTransfers,
          itemKey: transferKey,
        });
      },
    },
    ...pageTypes('ContractTransfer', 'a token contract’s transfers', 'A transfer'),
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
          pages: ctx.loaders.tokens.deploymentsPage
            .list({
              chainId: a.chainId,
              address: a.address,
            })
            .map((page) => {
              for (const c of page.items)
                ctx.loaders.evm.contract.prime(
                  { chainId: c.chainId, address: c.address.toLowerCase() },
                  c,
                );
              return page;
            }),
          pageSize: ctx.loaders.tokens.pageSizes.contractDeployments,
          itemKey: (c) => c.address.toLowerCase(),
        }),
    },
    ...pageTypes('DeployedContract', 'contracts an address deployed', 'A deployed contract'),
  ),
}));
