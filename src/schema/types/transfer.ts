import type { NativeTransaction } from '../../upstream/schemas/evm.js';
import type {
  Erc20TransferItem,
  Erc721TransferItem,
  Erc1155TransferItem,
  InTransaction,
} from '../../upstream/schemas/evm-transfers.js';
import { builder } from '../builder.js';
import { addressFields } from './address.js';
import { Erc20TokenRef, Erc721TokenRef, Erc1155TokenRef } from './token.js';
import { detailOf, TransactionRef } from './transaction.js';
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
    value: t.expose('value', {
      type: 'BigDecimal',
      description: 'Amount in the token’s smallest unit (see token.decimals).',
    }),
    token: t.field({
      type: Erc20TokenRef,
      description: 'The ERC-20 token transferred.',
      resolve: (x) => ({ ...x.erc20Token, chainId: x.chainId }),
    }),
  }),
});

export const Erc721TransferRef = builder.objectRef<Erc721TransferItem>('Erc721Transfer').implement({
  description: 'An ERC-721 (NFT) transfer.',
  interfaces: [TransactionPartRef, TokenTransferRef],
  fields: (t) => ({
    token: t.field({
      type: Erc721TokenRef,
      description: 'The NFT transferred (one token id).',
      resolve: (x) => ({ ...x.erc721Token, chainId: x.chainId }),
    }),
  }),
});

export const Erc1155TransferRef = builder
  .objectRef<Erc1155TransferItem>('Erc1155Transfer')
  .implement({
    description: 'An ERC-1155 transfer (one token id of a TransferSingle or TransferBatch event).',
    interfaces: [TransactionPartRef, TokenTransferRef],
    fields: (t) => ({
      value: t.expose('value', {
        type: 'BigDecimal',
        description: 'Amount of this token id transferred.',
      }),
      token: t.field({
        type: Erc1155TokenRef,
        description: 'The ERC-1155 token id transferred.',
        resolve: (x) => ({ ...x.erc1155Token, chainId: x.chainId }),
      }),
    }),
  });

builder.objectFields(TransactionRef, (t) => ({
  erc20Transfers: t.field({
    type: [Erc20TransferRef],
    nullable: true,
    description: 'Every ERC-20 transfer of this transaction (from the full transaction).',
    resolve: async (tx, _args, ctx) => {
      const d = await detailOf(tx, ctx);
      return (d.erc20Transfers ?? []).map((x) => ({ ...x, ...inTransaction(d.nativeTransaction) }));
    },
  }),
  erc721Transfers: t.field({
    type: [Erc721TransferRef],
    nullable: true,
    description: 'Every ERC-721 transfer of this transaction (from the full transaction).',
    resolve: async (tx, _args, ctx) => {
      const d = await detailOf(tx, ctx);
      return (d.erc721Transfers ?? []).map((x) => ({
        ...x,
        ...inTransaction(d.nativeTransaction),
      }));
    },
  }),
  erc1155Transfers: t.field({
    type: [Erc1155TransferRef],
    nullable: true,
    description: 'Every ERC-1155 transfer of this transaction (from the full transaction).',
    resolve: async (tx, _args, ctx) => {
      const d = await detailOf(tx, ctx);
      return (d.erc1155Transfers ?? []).map((x) => ({
        ...x,
        ...inTransaction(d.nativeTransaction),
      }));
    },
  }),
}));
