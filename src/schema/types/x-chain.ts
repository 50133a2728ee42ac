import { badInput } from '../../errors.js';
import type { BalanceResult } from '../../upstream/schemas/node-avm.js';
import { argTable } from '../arg-table.js';
import { builder } from '../builder.js';
import { exposed } from '../expose.js';
import { NetworkNodeRef } from './network-node.js';
import {
  nodeByName,
  parseAssetRef,
  parseChainAddress,
  parseId,
  parseUint,
} from './network-node-inputs.js';
import { loadAsset, XChainAssetRef } from './x-chain-asset.js';
import { XChainBlockRef } from './x-chain-block.js';
import { XChainTransactionRef } from './x-chain-tx.js';
import { utxoConnection } from './x-chain-utxo.js';

/**
 * The X-Chain of a configured node (`/ext/bc/X`, gorilla service `avm` — `xvm.` in the seed's neutral
 * naming). Height and fees follow the head; blocks, transactions and assets by id are final.
 */
export interface XChainShape {
  node: string;
}

const XChainFeesRef = builder
  .objectRef<{ txFee: string; createAssetTxFee: string }>('XChainFees')
  .implement({
    description: 'Static X-Chain fees in nAVAX (avm.getTxFee).',
    fields: (t) =>
      exposed(t, {
        txFee: ['BigDecimal', 'Fee of a base (transfer) transaction, in nAVAX.'],
        createAssetTxFee: ['BigDecimal', 'Fee to create an asset, in nAVAX.'],
      }),
  });

const UtxoPointerRef = builder
  .objectRef<BalanceResult['utxoIDs'][number] & { node: string }>('XChainUtxoPointer')
  .implement({
    description: 'A UTXO (by producing tx and output index) that makes up a balance.',
    fields: (t) => ({
      txId: t.exposeString('txID', {
        description: 'Id (CB58) of the transaction that produced the UTXO.',
      }),
      outputIndex: t.exposeInt('outputIndex', {
        description: "Index of the UTXO among that transaction's outputs.",
      }),
      transaction: t.field({
        type: XChainTransactionRef,
        description: 'The transaction that produced the UTXO.',
        resolve: (u) => ({ node: u.node, txId: u.txID }),
      }),
    }),
  });

const XChainBalanceRef = builder
  .objectRef<BalanceResult & { node: string }>('XChainBalance')
  .implement({
    description: 'A balance of one asset on the X-Chain (avm.getBalance).',
    fields: (t) => ({
      balance: t.expose('balance', {
        type: 'BigDecimal',
        description: "Balance in the asset's smallest unit (nAVAX for AVAX; decimal string).",
      }),
      utxos: t.field({
        type: [UtxoPointerRef],
        description: 'The UTXOs the balance is made of.',
        resolve: (b) => b.utxoIDs.map((u) => ({ ...u, node: b.node })),
      }),
    }),
  });

const XChainAssetBalanceRef = builder
  .objectRef<{ asset: string; balance: string; node: string }>('XChainAssetBalance')
  .implement({
    description: "A balance of one asset among an address's X-Chain balances (avm.getAllBalances).",
    fields: (t) => ({
      ...exposed(t, {
        asset: ['String', 'The asset id, or "AVAX".'],
        balance: ['BigDecimal', "Balance in the asset's smallest unit (decimal string)."],
      }),
      assetDescription: t.field({
        type: XChainAssetRef,
        nullable: true,
        description:
          "The asset's name, symbol and denomination; null when the node cannot describe it.",
        resolve: (b, _a, ctx) => loadAsset(ctx, b.node, b.asset),
      }),
    }),
  });

/** The address an X-Chain balance is of (read it with `parseChainAddress`). */
const X_ADDRESS_ARG = ['String!', 'X-Chain address (bech32, `X-avax1…` or `avax1…`).'] as const;

export const XChainRef = builder.objectRef<XChainShape>('XChain').implement({
  description: "A configured node's X-Chain.",
  fields: (t) => ({
    height: t.field({
      type: 'BigDecimal',
      nullable: true,
      description: 'Height of the last accepted block (avm.getHeight).',
      resolve: (x, _a, ctx) => nodeByName(ctx, x.node).read((c) => c.xChain.height()),
    }),
    fees: t.field({
      type: XChainFeesRef,
      nullable: true,
      description: 'Static X-Chain fees (avm.getTxFee); null when the node does not answer.',
      resolve: (x, _a, ctx) => nodeByName(ctx, x.node).read((c) => c.xChain.fees()),
    }),
    block: t.field({
      type: XChainBlockRef,
      nullable: true,
      description: 'A block by id or by height (exactly one).',
      args: argTable(t.arg, {
        id: ['String', 'Block id (CB58).'],
        height: ['BigDecimal', 'Block height (decimal string).'],
      }),
      resolve: (x, args) => {
        if ((args.id == null) === (args.height == null))
          throw badInput(args.id == null ? 'id' : 'height', 'Give exactly one of id and height');
        return {
          node: x.node,
          ref:
            args.id != null
              ? { id: parseId(args.id, 'id', 'block id') }
              : { height: parseUint(args.height!, 'height') },
        };
      },
    }),
    transaction: t.field({
      type: XChainTransactionRef,
      nullable: true,
      args: { id: t.arg.string({ required: true, description: 'Tx id (CB58).' }) },
      description: 'An X-Chain transaction by id, decoded by the node.',
      resolve: (x, args) => ({ node: x.node, txId: parseId(args.id, 'id', 'transaction id') }),
    }),
    asset: t.field({
      type: XChainAssetRef,
      nullable: true,
      args: argTable(t.arg, {
        id: ['String!', 'Asset id (CB58) or alias ("AVAX").'],
      }),
      description: 'An X-Chain asset by id or alias.',
      resolve: (x, args, ctx) => loadAsset(ctx, x.node, parseAssetRef(args.id, 'id')),
    }),
    utxos: utxoConnection(t, 'X', {
      description:
        'UTXOs referencing any of the addresses (avm.getUTXOs); with sourceChain, atomic UTXOs exported from that chain.',
      addresses: 'X-Chain addresses (X-avax1…; the X- may be omitted), one network.',
      sourceChain: 'A chain id or alias ("P", "C") for atomic UTXOs imported from it.',
      sourceRequired: false,
      page: 'A page of UTXOs.',
      edge: 'A UTXO and its cursor.',
    }),
    balance: t.field({
      type: XChainBalanceRef,
      nullable: true,
      deprecationReason:
        'avm.getBalance is deprecated as of AvalancheGo v1.9.12: sum utxos(addresses) instead.',
      args: argTable(t.arg, {
        address: X_ADDRESS_ARG,
        assetId: ['String!', 'Asset id or alias.'],
      }),
      description: 'Balance of one asset of an address (deprecated by the node).',
      resolve: async (x, args, ctx) => {
        const { address } = parseChainAddress(args.address, 'X', 'address');
        const asset = parseAssetRef(args.assetId, 'assetId');
        return {
          ...(await nodeByName(ctx, x.node).read((c) => c.xChain.balance(address, asset))),
          node: x.node,
        };
      },
    }),
    balances: t.field({
      type: [XChainAssetBalanceRef],
      nullable: true,
      deprecationReason:
        'avm.getAllBalances is deprecated as of AvalancheGo v1.9.12: sum utxos(addresses) instead.',
      args: argTable(t.arg, {
        address: X_ADDRESS_ARG,
      }),
      description: 'Balances of every asset of an address (deprecated by the node).',
      resolve: async (x, args, ctx) => {
        const { address } = parseChainAddress(args.address, 'X', 'address');
        return (await nodeByName(ctx, x.node).read((c) => c.xChain.allBalances(address))).map(
          (b) => ({ ...b, node: x.node }),
        );
      },
    }),
  }),
});

builder.objectFields(NetworkNodeRef, (t) => ({
  xChain: t.field({
    type: XChainRef,
    description: 'The X-Chain of this node.',
    resolve: (n) => ({ node: n.name }),
  }),
}));
