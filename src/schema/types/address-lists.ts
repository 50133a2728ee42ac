import type { ObjectRef } from '@pothos/core';
import type { GatewayContext } from '../../context.js';
import { type AddressPageKey, UPSTREAM_PAGE_SIZE } from '../../loaders/evm.js';
import type { PagedList } from '../../loaders/request-loader.js';
import type { NativeTransaction } from '../../upstream/schemas/evm.js';
import type { TransactionDetails } from '../../upstream/schemas/evm-transfers.js';
import { blockRangeArgs } from '../block-range-args.js';
import { builder } from '../builder.js';
import type { GatewayTypes, ObjectFields } from '../builder-types.js';
import { type BlockRange, type ConnectionArgs, resolveTokenConnection } from '../connection.js';
import { parseBlockRange } from '../inputs.js';
import { AddressRef, type AddressShape } from './address.js';
import { InternalTransactionRef } from './internal-transaction.js';
import { SortOrderEnum } from './network.js';
import { TransactionRef } from './transaction.js';
import {
  Erc20TransferRef,
  Erc721TransferRef,
  Erc1155TransferRef,
  inTransaction,
} from './transfer.js';

/**
 * An address's lists, each a Relay connection over the upstream's page tokens. Every list takes a block
 * range (startBlock inclusive, endBlock exclusive), checked before any upstream call; the range and the
 * sort order are part of the list's identity, so a cursor only resumes the list it came from.
 */
const rangeArgs = blockRangeArgs(
  'End of the range (exclusive): items of this block are not included.',
);

type RangeArgs = ConnectionArgs & { startBlock?: string | null; endBlock?: string | null };

/** How a block resume's range (decimal strings) goes into an address page key. */
type WithRange = (range: BlockRange) => Partial<AddressPageKey>;

/**
 * Checks the range, then pages the list. A cursor that outlives the upstream's page tokens resumes
 * from its item's block (DESIGN: connections).
 */
function addressList<T>(
  a: AddressShape,
  args: RangeArgs,
  ctx: GatewayContext,
  pagesOf: (key: Omit<AddressPageKey, 'pageToken'>, withRange: WithRange) => PagedList<T>,
  itemKey: (item: T) => string,
  blockOf: (item: T) => string,
  { order = 'desc' }: { order?: 'asc' | 'desc' } = {},
) {
  const range = parseBlockRange(args);
  const asNumbers = (r: BlockRange) => ({
    startBlock: r.startBlock === undefined ? undefined : Number(r.startBlock),
    endBlock: r.endBlock === undefined ? undefined : Number(r.endBlock),
  });
  return resolveTokenConnection<T>(args, ctx.connections, {
    pages: pagesOf({ chainId: a.chainId, address: a.address, ...range }, asNumbers),
    pageSize: UPSTREAM_PAGE_SIZE.addressLists,
    itemKey,
    resume: {
      blockOf,
      order,
      range: { startBlock: range.startBlock?.toString(), endBlock: range.endBlock?.toString() },
    },
  });
}

/** The block of a list-form item (every address list but the combined one carries it at the top). */
const byBlock = (x: { blockNumber: string }) => x.blockNumber;

/** The arguments and resolver of a list-form address list, from its pages and its items' identity. */
const rangeList = <T extends { blockNumber: string }>(
  pagesOf: (evm: GatewayContext['loaders']['evm']) => Parameters<typeof addressList<T>>[3],
  itemKey: (item: T) => string,
) => ({
  args: rangeArgs,
  resolve: (a: AddressShape, args: RangeArgs, ctx: GatewayContext) =>
    addressList(a, args, ctx, pagesOf(ctx.loaders.evm), itemKey, byBlock),
});

/** An address's transfers of one token standard (ERC-20, 721, 1155), by their pages and identity. */
function tokenTransfers<T extends { blockNumber: string; txHash: string; logIndex: number }>(
  t: ObjectFields<AddressShape>,
  type: ObjectRef<GatewayTypes, T>,
  standard: 20 | 721 | 1155,
  pagesOf: (evm: GatewayContext['loaders']['evm']) => {
    list: Parameters<typeof addressList<T>>[3];
  },
  itemKey: (item: T) => string = (x) => `${x.txHash}:${x.logIndex}`,
) {
  return t.connection(
    {
      type,
      nullable: true,
      description: `ERC-${standard} transfers to or from this address, newest first. Forward paging only.`,
      ...rangeList((evm) => pagesOf(evm).list, itemKey),
    },
    { name: `Erc${standard}TransferConnection` },
    { name: `Erc${standard}TransferEdge` },
  );
}

type CombinedEdge = { cursor: string; node: NativeTransaction; details: TransactionDetails };
/** The parts of one kind (transfers, internal transactions) of a combined edge's transaction. */
type PartKind = 'erc20Transfers' | 'erc721Transfers' | 'erc1155Transfers' | 'internalTransactions';
type PartOf<K extends PartKind> = ReturnType<typeof partsOf<K>>[number];
const partsOf = <K extends PartKind>({ details: d }: CombinedEdge, kind: K) =>
  (d[kind] ?? []).map((x: NonNullable<TransactionDetails[K]>[number]) => ({
    ...x,
    ...inTransaction(d.nativeTransaction),
  }));
const scoped = (what: string) =>
  `Only the ${what} of this transaction in which this address is the sender or the recipient: the combined list carries no others. ` +
  `For all of them, follow \`node\`.`;

builder.objectFields(AddressRef, (t) => ({
  transactions: t.connection(
    {
      type: TransactionRef,
      nullable: true,
      description:
        'Every transaction this address took part in (as sender, recipient, or in a transfer or internal transaction). ' +
        'Each edge carries the transfers of that transaction involving this address. Forward paging only (first/after).',
      args: {
        ...rangeArgs,
        sortOrder: t.arg({
          type: SortOrderEnum,
          required: false,
          description: 'Default: the upstream’s (newest first).',
        }),
      },
      resolve: async (a, args, ctx) => {
        const conn = await addressList<TransactionDetails>(
          a,
          args,
          ctx,
          (k, withRange) =>
            ctx.loaders.evm.addressTransactionsPage.list(
              { ...k, sortOrder: args.sortOrder ?? undefined },
              withRange,
            ),
          (d) => d.nativeTransaction.txHash,
          (d) => d.nativeTransaction.blockNumber,
          { order: args.sortOrder === 'asc' ? 'asc' : 'desc' },
        );
        const edges: CombinedEdge[] = conn.edges.map((e) => ({
          cursor: e.cursor,
          node: e.node.nativeTransaction,
          details: e.node,
        }));
        return { ...conn, edges };
      },
    },
    { name: 'AddressTransactionConnection', description: 'A page of an address’s transactions.' },
    {
      name: 'AddressTransactionEdge',
      description:
        'A transaction of the address, with the transfers and internal transactions of it that involve the address.',
      fields: (e) => {
        const parts = <K extends PartKind>(
          kind: K,
          type: ObjectRef<GatewayTypes, PartOf<K>>,
          what: string,
        ) =>
          e.field({
            type: [type],
            description: scoped(what),
            resolve: (edge) => partsOf(edge as CombinedEdge, kind),
          });
        return {
          erc20Transfers: parts('erc20Transfers', Erc20TransferRef, 'ERC-20 transfers'),
          erc721Transfers: parts('erc721Transfers', Erc721TransferRef, 'ERC-721 transfers'),
          erc1155Transfers: parts('erc1155Transfers', Erc1155TransferRef, 'ERC-1155 transfers'),
          internalTransactions: parts(
            'internalTransactions',
            InternalTransactionRef,
            'internal transactions',
          ),
        };
      },
    },
  ),
  nativeTransactions: t.connection(
    {
      type: TransactionRef,
      nullable: true,
      description:
        'Transactions this address sent or received directly (as `from` or `to`), newest first. Forward paging only.',
      ...rangeList(
        (evm) => evm.addressNativeTransactionsPage.list,
        (tx) => tx.txHash,
      ),
    },
    { name: 'AddressNativeTransactionConnection' },
    { name: 'AddressNativeTransactionEdge' },
  ),
  erc20Transfers: tokenTransfers(t, Erc20TransferRef, 20, (evm) => evm.addressErc20TransfersPage),
  erc721Transfers: tokenTransfers(
    t,
    Erc721TransferRef,
    721,
    (evm) => evm.addressErc721TransfersPage,
  ),
  erc1155Transfers: tokenTransfers(
    t,
    Erc1155TransferRef,
    1155,
    (evm) => evm.addressErc1155TransfersPage,
    (x) => `${x.txHash}:${x.logIndex}:${x.erc1155Token.tokenId}`,
  ),
  internalTransactions: t.connection(
    {
      type: InternalTransactionRef,
      nullable: true,
      description:
        'Internal transactions to or from this address (valued calls and contract creations), newest first. Forward paging only.',
      ...rangeList(
        (evm) => evm.addressInternalTransactionsPage.list,
        (x) =>
          `${x.txHash}:${x.from.address}:${x.to.address}:${x.value}:${x.gasUsed}:${x.internalTxType}`,
      ),
    },
    { name: 'InternalTransactionConnection' },
    { name: 'InternalTransactionEdge' },
  ),
}));
