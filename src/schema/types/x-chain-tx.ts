import type { GatewayContext } from '../../context.js';
import { badInput } from '../../errors.js';
import type { XTxInput, XTxJson, XTxOutput } from '../../upstream/schemas/node-avm.js';
import { builder } from '../builder.js';
import { nodeByName, parseId } from './network-node-inputs.js';
import { formatDenominated, loadAsset, XChainAssetRef } from './x-chain-asset.js';

/**
 * An X-Chain transaction on a configured node (avm.getTx): its signed bytes (`hex` encoding) and its
 * decoded form (`json` encoding), each fetched only when selected. Accepted txs are final: cached for long.
 * Global id: `XChainTransaction:<node>:<tx id>`.
 */
export interface XChainTxShape {
  node: string;
  txId: string;
  /** The decoded form, when it came with the parent (a block's `json` encoding). */
  json?: XTxJson;
}

const decoded = (tx: XChainTxShape, ctx: GatewayContext): Promise<XTxJson> =>
  tx.json
    ? Promise.resolve(tx.json)
    : nodeByName(ctx, tx.node).read((c) => c.xChain.txJson(tx.txId));
const unsigned = async (tx: XChainTxShape, ctx: GatewayContext) =>
  (await decoded(tx, ctx)).unsignedTx;

export const XChainTxKindEnum = builder.enumType('XChainTxKind', {
  description: 'What the transaction does, read from its decoded fields.',
  values: {
    BASE: { description: 'A plain transfer between X-Chain addresses.' },
    CREATE_ASSET: { description: 'Creates a new asset (its id is the tx id).' },
    EXPORT: { description: "Sends funds to another chain's atomic memory (P- or C-Chain)." },
    IMPORT: { description: "Takes funds from another chain's atomic memory." },
  } as const,
});

type Owned<T> = T & { node: string };

const XChainTxOutputRef = builder.objectRef<Owned<XTxOutput>>('XChainTxOutput').implement({
  description:
    'An output of an X-Chain tx. Secp256k1fx transfer outputs carry owners, amount, locktime and threshold.',
  fields: (t) => ({
    assetId: t.exposeString('assetID', { description: 'CB58 id of the asset of the output.' }),
    asset: t.field({
      type: XChainAssetRef,
      nullable: true,
      description:
        "The asset's name, symbol and denomination; null when the node cannot describe it.",
      resolve: (o, _a, ctx) => loadAsset(ctx, o.node, o.assetID),
    }),
    fxId: t.exposeString('fxID', {
      nullable: true,
      description:
        'CB58 id of the feature extension (Fx) of the output; null when the node omits it.',
    }),
    addresses: t.stringList({
      description: 'Owners, e.g. X-avax1…',
      resolve: (o) => o.output.addresses,
    }),
    amount: t.field({
      type: 'BigDecimal',
      nullable: true,
      description: 'In the asset’s smallest unit.',
      resolve: (o) => o.output.amount ?? null,
    }),
    amountFormatted: t.string({
      nullable: true,
      description: 'The amount with the asset’s denomination.',
      resolve: async (o, _a, ctx) =>
        o.output.amount === undefined
          ? null
          : formatDenominated(
              o.output.amount,
              (await loadAsset(ctx, o.node, o.assetID)).denomination,
            ),
    }),
    locktime: t.field({
      type: 'BigDecimal',
      nullable: true,
      description: 'Unix seconds before which the output cannot be spent.',
      resolve: (o) => o.output.locktime ?? null,
    }),
    threshold: t.int({
      nullable: true,
      description: 'Signatures of the owners needed to spend it.',
      resolve: (o) => o.output.threshold ?? null,
    }),
  }),
});

export const XChainTransactionRef = builder.objectRef<XChainTxShape>('XChainTransaction');

const XChainTxInputRef = builder
  .objectRef<Owned<XTxInput> & { local: boolean }>('XChainTxInput')
  .implement({
    description: 'A UTXO an X-Chain tx consumes.',
    fields: (t) => ({
      txId: t.exposeString('txID', { description: 'The tx that produced the consumed UTXO.' }),
      outputIndex: t.exposeInt('outputIndex', {
        description: "Index of the consumed UTXO among its transaction's outputs.",
      }),
      transaction: t.field({
        type: XChainTransactionRef,
        nullable: true,
        description:
          'The X-Chain tx that produced the consumed UTXO (null for imported inputs, produced on another chain).',
        resolve: (i) => (i.local ? { node: i.node, txId: i.txID } : null),
      }),
      assetId: t.exposeString('assetID', { description: 'CB58 id of the asset consumed.' }),
      asset: t.field({
        type: XChainAssetRef,
        nullable: true,
        description:
          "The asset's name, symbol and denomination; null when the node cannot describe it.",
        resolve: (i, _a, ctx) => loadAsset(ctx, i.node, i.assetID),
      }),
      fxId: t.exposeString('fxID', {
        nullable: true,
        description: 'CB58 id of the Fx of the input; null when the node omits it.',
      }),
      amount: t.field({
        type: 'BigDecimal',
        nullable: true,
        description: "Amount consumed, in the asset's smallest unit; null for non-fungible inputs.",
        resolve: (i) => i.input.amount ?? null,
      }),
      signatureIndices: t.intList({
        resolve: (i) => i.input.signatureIndices,
        description: 'Indices of the owner addresses whose signatures spend the UTXO.',
      }),
    }),
  });

const CredentialRef = builder
  .objectRef<XTxJson['credentials'][number]>('XChainCredential')
  .implement({
    description: 'Signatures proving the right to consume one input.',
    fields: (t) => ({
      fxId: t.exposeString('fxID', {
        nullable: true,
        description: 'CB58 id of the Fx the credential belongs to; null when the node omits it.',
      }),
      signatures: t.stringList({
        resolve: (c) => c.credential.signatures,
        description:
          'Signatures (0x-hex, 65 bytes each), one per signature index of the matching input.',
      }),
    }),
  });

const outputs = (node: string, list: XTxOutput[]) => list.map((o) => ({ ...o, node }));
const inputs = (node: string, list: XTxInput[], local: boolean) =>
  list.map((i) => ({ ...i, node, local }));

builder.node(XChainTransactionRef, {
  description: 'An X-Chain transaction as a configured node serves it.',
  id: { resolve: (tx) => `${tx.node}:${tx.txId}` },
  loadOne: async (id, ctx) => {
    const [node, txId] = id.split(':');
    if (!node || !txId) throw badInput('id', 'Malformed XChainTransaction id');
    const tx = { node, txId: parseId(txId, 'id', 'transaction id') };
    await nodeByName(ctx, node, 'id').read((c) => c.xChain.txHex(tx.txId)); // it exists (final: cached)
    return tx;
  },
  fields: (t) => ({
    txId: t.exposeString('txId', { description: 'The tx id (CB58).' }),
    hex: t.string({
      nullable: true,
      description: "The signed tx in the node's hex encoding (0x, bytes, 4-byte checksum).",
      resolve: (tx, _a, ctx) => nodeByName(ctx, tx.node).read((c) => c.xChain.txHex(tx.txId)),
    }),
    kind: t.field({
      type: XChainTxKindEnum,
      nullable: true,
      description:
        'What the transaction does (BASE, CREATE_ASSET, EXPORT, IMPORT); null when the node cannot decode it.',
      resolve: async (tx, _a, ctx) => {
        const u = await unsigned(tx, ctx);
        return u.destinationChain
          ? 'EXPORT'
          : u.sourceChain
            ? 'IMPORT'
            : u.symbol !== undefined
              ? 'CREATE_ASSET'
              : 'BASE';
      },
    }),
    networkId: t.int({
      nullable: true,
      description: 'Network id the transaction is for (1 = mainnet, 5 = Fuji).',
      resolve: async (tx, _a, ctx) => (await unsigned(tx, ctx)).networkID,
    }),
    blockchainId: t.string({
      nullable: true,
      description: 'CB58 id of the chain the transaction was issued on (the X-Chain).',
      resolve: async (tx, _a, ctx) => (await unsigned(tx, ctx)).blockchainID,
    }),
    memo: t.string({
      nullable: true,
      description: '0x-hex.',
      resolve: async (tx, _a, ctx) => (await unsigned(tx, ctx)).memo ?? null,
    }),
    outputs: t.field({
      type: [XChainTxOutputRef],
      nullable: true,
      description: 'Outputs created on the X-Chain.',
      resolve: async (tx, _a, ctx) => outputs(tx.node, (await unsigned(tx, ctx)).outputs),
    }),
    inputs: t.field({
      type: [XChainTxInputRef],
      nullable: true,
      description: 'UTXOs consumed on the X-Chain.',
      resolve: async (tx, _a, ctx) => inputs(tx.node, (await unsigned(tx, ctx)).inputs, true),
    }),
    destinationChain: t.string({
      nullable: true,
      description: 'Export txs: the chain the outputs go to.',
      resolve: async (tx, _a, ctx) => (await unsigned(tx, ctx)).destinationChain ?? null,
    }),
    exportedOutputs: t.field({
      type: [XChainTxOutputRef],
      nullable: true,
      description: "Export txs: outputs sent to `destinationChain`'s atomic memory.",
      resolve: async (tx, _a, ctx) => outputs(tx.node, (await unsigned(tx, ctx)).exportedOutputs),
    }),
    sourceChain: t.string({
      nullable: true,
      description: 'Import txs: the chain the inputs come from.',
      resolve: async (tx, _a, ctx) => (await unsigned(tx, ctx)).sourceChain ?? null,
    }),
    importedInputs: t.field({
      type: [XChainTxInputRef],
      nullable: true,
      description: "Import txs: UTXOs consumed from `sourceChain`'s atomic memory.",
      resolve: async (tx, _a, ctx) =>
        inputs(tx.node, (await unsigned(tx, ctx)).importedInputs, false),
    }),
    createdAsset: t.field({
      type: XChainAssetRef,
      nullable: true,
      description: 'CreateAssetTx: the asset it created (its id is this tx id).',
      resolve: async (tx, _a, ctx) =>
        (await unsigned(tx, ctx)).symbol === undefined ? null : loadAsset(ctx, tx.node, tx.txId),
    }),
    credentials: t.field({
      type: [CredentialRef],
      nullable: true,
      description: 'Credentials (signatures) that authorize the inputs, in input order.',
      resolve: async (tx, _a, ctx) => (await decoded(tx, ctx)).credentials,
    }),
    status: t.string({
      nullable: true,
      description: 'Accepted, Processing, Rejected or Unknown.',
      deprecationReason:
        'avm.getTxStatus is deprecated as of AvalancheGo v1.10.0: a tx the node serves is accepted.',
      resolve: (tx, _a, ctx) => nodeByName(ctx, tx.node).read((c) => c.xChain.txStatus(tx.txId)),
    }),
  }),
});
