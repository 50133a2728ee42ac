import type { ObjectRef } from '@pothos/core';
import type { NativeTransaction } from '../../upstream/schemas/evm.js';
import type {
  Erc20TransferItem,
  Erc721TransferItem,
  Erc1155TransferItem,
  InTransaction,
  TransactionDetail,
} from '../../upstream/schemas/evm-transfers.js';
import { builder } from '../builder.js';
import type { GatewayTypes, ObjectFields } from '../builder-types.js';
import { exposed } from '../expose.js';
import { addressFields } from './address.js';
import { Erc20TokenRef, Erc721TokenRef, Erc1155TokenRef } from './token.js';
import { detailOf, ranNoCode, TransactionRef } from './transaction.js';
import { TransactionPartRef } from './transaction-part.js';

/**
 * Token transfers. The same transfer arrives in two forms — inside a transaction (get-transaction, the
 * combined address list) and as an address-list item with its block fields — and both are normalized
 * to carry where they sit (`InTransaction`), so every transfer links to its transaction and block.
 */
type AnyTransfer = Erc20TransferItem | Erc721TransferItem | Erc1155TransferItem;

/** Where an item inside a transaction sits: the parent transaction's position. */
export const inTransaction = (tx: NativeTransaction): InTransaction => ({
  chainId: tx.chainId,
  txHash: tx.txHash,
  blockNumber: tx.blockNumber,
  blockHash: tx.blockHash,
  blockTimestamp: tx.blockTimestamp,
});

/** The token a transfer moved, on the transfer's chain. */
const tokenOf = <S extends InTransaction, T>(
  t: ObjectFields<S>,
  type: ObjectRef<GatewayTypes, T & { chainId: string }>,
  description: string,
  token: (transfer: S) => T,
) => ({
  token: t.field({
    type,
    description,
    // Pothos cannot resolve its list-or-item conditional for a generic T: the token is one item.
    resolve: (x) => ({ ...token(x), chainId: x.chainId }) as never,
  }),
});

export const TokenTransferRef = builder.interfaceRef<AnyTransfer>('TokenTransfer').implement({
  description:
    'A token transfer (an ERC-20, ERC-721 or ERC-1155 Transfer event) inside a transaction.',
  interfaces: [TransactionPartRef],
  fields: (t) => ({
    ...addressFields(t, {
      from: 'The sender (for a mint, the zero address).',
      to: 'The recipient (for a burn, the zero address).',
    }),
    logIndex: t.exposeInt('logIndex', {
      description: 'Index of the Transfer event log in its block.',
    }),
  }),
});

export const Erc20TransferRef = builder.objectRef<Erc20TransferItem>('Erc20Transfer').implement({
  description: 'An ERC-20 transfer.',
  interfaces: [TransactionPartRef, TokenTransferRef],
  fields: (t) => ({
    ...exposed(t, {
      value: ['BigDecimal', 'Amount in the token’s smallest unit (see token.decimals).'],
    }),
    ...tokenOf(t, Erc20TokenRef, 'The ERC-20 token transferred.', (x) => x.erc20Token),
  }),
});

export const Erc721TransferRef = builder.objectRef<Erc721TransferItem>('Erc721Transfer').implement({
  description: 'An ERC-721 (NFT) transfer.',
  interfaces: [TransactionPartRef, TokenTransferRef],
  fields: (t) => ({
    ...tokenOf(t, Erc721TokenRef, 'The NFT transferred (one token id).', (x) => x.erc721Token),
  }),
});

export const Erc1155TransferRef = builder
  .objectRef<Erc1155TransferItem>('Erc1155Transfer')
  .implement({
    description: 'An ERC-1155 transfer (one token id of a TransferSingle or TransferBatch event).',
    interfaces: [TransactionPartRef, TokenTransferRef],
    fields: (t) => ({
      ...exposed(t, { value: ['BigDecimal', 'Amount of this token id transferred.'] }),
      ...tokenOf(t, Erc1155TokenRef, 'The ERC-1155 token id transferred.', (x) => x.erc1155Token),
    }),
  });

type PartKind = 'erc20Transfers' | 'erc721Transfers' | 'erc1155Transfers' | 'internalTransactions';
type PartOf<K extends PartKind> = NonNullable<TransactionDetail[K]>[number] & InTransaction;

/** A transaction's parts of one kind, read from the full transaction, each bound to where it sits. */
export const partsOfTransaction = <K extends PartKind>(
  t: ObjectFields<NativeTransaction>,
  kind: K,
  type: ObjectRef<GatewayTypes, PartOf<K>>,
  description: string,
) =>
  t.field({
    type: [type],
    nullable: true,
    description,
    resolve: async (tx, _args, ctx) => {
      // No log and no inner call: a transaction that ran no code has no transfer and no internal one.
      if (ranNoCode(tx, ctx)) return [];
      const d = await detailOf(tx, ctx);
      return (d[kind] ?? []).map(
        (x: NonNullable<TransactionDetail[K]>[number]): PartOf<K> => ({
          ...x,
          ...inTransaction(d.nativeTransaction),
        }),
      );
    },
  });

const fromFull = (standard: string) =>
  `Every ${standard} transfer of this transaction (from the full transaction).`;

builder.objectFields(TransactionRef, (t) => ({
  erc20Transfers: partsOfTransaction(t, 'erc20Transfers', Erc20TransferRef, fromFull('ERC-20')),
  erc721Transfers: partsOfTransaction(t, 'erc721Transfers', Erc721TransferRef, fromFull('ERC-721')),
  erc1155Transfers: partsOfTransaction(
    t,
    'erc1155Transfers',
    Erc1155TransferRef,
    fromFull('ERC-1155'),
  ),
}));
