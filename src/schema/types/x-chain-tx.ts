import type { GatewayContext } from '../../context.js';
import { badInput } from '../../errors.js';
import type { XTxInput, XTxJson, XTxOutput } from '../../upstream/schemas/node-avm.js';
import { builder } from '../builder.js';
import type { ObjectFields } from '../builder-types.js';
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

/** An output's or input's asset (its id, and as the node describes it) and its Fx. */
const assetParts = <S extends Owned<{ assetID: string; fxID?: string }>>(
  t: ObjectFields<S>,
  assetIdDescription: string,
  fxIdDescription: string,
) => ({
  assetId: t.string({ description: assetIdDescription, resolve: (part) => part.assetID }),
  asset: t.field({
    type: XChainAssetRef,
    nullable: true,
    description:
      "The asset's name, symbol and denomination; null when the node cannot describe it.",
    resolve: (part, _a, ctx) => loadAsset(ctx, part.node, part.assetID),
  }),
  fxId: t.string({ nullable: true, description: fxIdDescription, resolve: (part) => part.fxID }),
});

const XChainTxOutputRef = builder.objectRef<Owned<XTxOutput>>('XChainTxOutput').implement({
  description:
    'An output of an X-Chain tx. Secp256k1fx transfer outputs carry owners, amount, locktime and threshold.',
  fields: (t) => ({
    ...assetParts(
      t,
      'CB58 id of the asset of the output.',
      'CB58 id of the feature extension (Fx) of the output; null when the node omits it.',
    ),
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
      ...assetParts(
        t,
        'CB58 id of the asset consumed.',
        'CB58 id of the Fx of the input; null when the node omits it.',
      ),
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

/** The parts of the decoded unsigned tx, each field null when the node cannot decode the tx. */
type TxFields = ObjectFields<XChainTxShape>;
const unsignedString = (
  t: TxFields,
  part: 'blockchainID' | 'memo' | 'destinationChain' | 'sourceChain',
  description: string,
) =>
  t.string({
    nullable: true,
    description,
    resolve: async (tx, _a, ctx) => (await unsigned(tx, ctx))[part] ?? null,
  });
/** Outputs created on the X-Chain, or exported to another chain's atomic memory. */
const unsignedOutputs = (t: TxFields, part: 'outputs' | 'exportedOutputs', description: string) =>
  t.field({
    type: [XChainTxOutputRef],
    nullable: true,
    description,
    resolve: async (tx, _a, ctx) => outputs(tx.node, (await unsigned(tx, ctx))[part]),
  });
/** UTXOs consumed on the X-Chain (`local`), or imported from another chain's atomic memory. */
const unsignedInputs = (
  t: TxFields,
  part: 'inputs' | 'importedInputs',
  local: boolean,
  description: string,
) =>
  t.field({
    type: [XChainTxInputRef],
    nullable: true,
    description,
    resolve: async (tx, _a, ctx) => inputs(tx.node, (await unsigned(tx, ctx))[part], local),
  });

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
    blockchainId: unsignedString(
      t,
      'blockchainID',
      'CB58 id of the chain the transaction was issued on (the X-Chain).',
    ),
    memo: unsignedString(t, 'memo', '0x-hex.'),
    outputs: unsignedOutputs(t, 'outputs', 'Outputs created on the X-Chain.'),
    inputs: unsignedInputs(t, 'inputs', true, 'UTXOs consumed on the X-Chain.'),
    destinationChain: unsignedString(
      t,
      'destinationChain',
      'Export txs: the chain the outputs go to.',
    ),
    exportedOutputs: unsignedOutputs(
      t,
      'exportedOutputs',
      "Export txs: outputs sent to `destinationChain`'s atomic memory.",
    ),
    sourceChain: unsignedString(t, 'sourceChain', 'Import txs: the chain the inputs come from.'),
    importedInputs: unsignedInputs(
      t,
      'importedInputs',
      false,
      "Import txs: UTXOs consumed from `sourceChain`'s atomic memory.",
    ),
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
