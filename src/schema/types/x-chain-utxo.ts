import type { GatewayContext } from '../../context.js';
import { NODE_UTXO_PAGE_SIZE } from '../../loaders/node.js';
import { bech32Encode, type DecodedUtxo, decodeUtxo } from '../../upstream/schemas/node-codec.js';
import { builder } from '../builder.js';
import type { ObjectFields } from '../builder-types.js';
import { type ConnectionArgs, resolveTokenConnection } from '../connection.js';
import { nodeByName, parseChainAddresses, parseChainRef } from './network-node-inputs.js';
import { formatDenominated, loadAsset, XChainAssetRef } from './x-chain-asset.js';
import { XChainTransactionRef } from './x-chain-tx.js';

/**
 * Unspent outputs of addresses, from `avm.getUTXOs` (X-Chain) or `avax.getUTXOs` (C-Chain shared memory),
 * as a Relay connection over the node's `endIndex` paging: the endIndex of a page, serialized, plays the
 * page token's role (a cursor carries the one its page was fetched with). Pages are fetched at the node's
 * largest limit (1024). As the node documents, the UTXO set may change between calls and a UTXO owned by
 * several of the addresses may repeat across pages: a UTXO list is head data, cached about one block time.
 * Each UTXO is decoded from its hex bytes (secp256k1fx transfer outputs: amount, locktime, threshold, owners).
 */
export interface UtxoShape {
  node: string;
  /** The chain the UTXO is spendable on, and the network's bech32 prefix for its owners. */
  chain: 'X' | 'C';
  hrp: string;
  /** The chain it was exported from (atomic UTXOs), or undefined for the chain's own UTXOs. */
  sourceChain?: string;
  hex: string;
  utxo: DecodedUtxo | undefined;
}

export const UtxoRef = builder.objectRef<UtxoShape>('Utxo').implement({
  description: 'An unspent output, decoded from the bytes the node returns.',
  fields: (t) => ({
    utxoId: t.string({
      nullable: true,
      description: 'sha256(output index ‖ tx id), CB58.',
      resolve: (u) => u.utxo?.id ?? null,
    }),
    txId: t.string({
      nullable: true,
      description: 'The tx that produced it (on sourceChain for atomic UTXOs).',
      resolve: (u) => u.utxo?.txId ?? null,
    }),
    outputIndex: t.int({
      nullable: true,
      description:
        "Index of this output among its transaction's outputs; null when the bytes cannot be decoded.",
      resolve: (u) => u.utxo?.outputIndex ?? null,
    }),
    transaction: t.field({
      type: XChainTransactionRef,
      nullable: true,
      description: 'The X-Chain tx that produced it (X-Chain UTXOs that were not imported).',
      resolve: (u) =>
        u.chain === 'X' && !u.sourceChain && u.utxo ? { node: u.node, txId: u.utxo.txId } : null,
    }),
    sourceChain: t.string({
      nullable: true,
      description: 'Atomic UTXOs: the chain they were exported from, as the request named it.',
      resolve: (u) => u.sourceChain ?? null,
    }),
    assetId: t.string({
      nullable: true,
      description: 'CB58 id of the asset held; null when undecodable.',
      resolve: (u) => u.utxo?.assetId ?? null,
    }),
    asset: t.field({
      type: XChainAssetRef,
      nullable: true,
      description: "The asset's name, symbol and denomination; null when unknown.",
      resolve: (u, _a, ctx) => (u.utxo ? loadAsset(ctx, u.node, u.utxo.assetId) : null),
    }),
    outputTypeId: t.int({
      nullable: true,
      description: 'Codec type of the output: 7 is a secp256k1fx transfer output.',
      resolve: (u) => u.utxo?.outputTypeId ?? null,
    }),
    amount: t.field({
      type: 'BigDecimal',
      nullable: true,
      description: 'In the asset’s smallest unit.',
      resolve: (u) => u.utxo?.transfer?.amount ?? null,
    }),
    amountFormatted: t.string({
      nullable: true,
      description: 'The amount with the asset’s denomination.',
      resolve: async (u, _a, ctx) => {
        const amount = u.utxo?.transfer?.amount;
        return amount === undefined
          ? null
          : formatDenominated(amount, (await loadAsset(ctx, u.node, u.utxo!.assetId)).denomination);
      },
    }),
    locktime: t.field({
      type: 'BigDecimal',
      nullable: true,
      description: 'Unix seconds before which it cannot be spent.',
      resolve: (u) => u.utxo?.transfer?.locktime ?? null,
    }),
    threshold: t.int({
      nullable: true,
      description: 'Signatures of the owners needed to spend it; null for a non-transfer output.',
      resolve: (u) => u.utxo?.transfer?.threshold ?? null,
    }),
    addresses: t.stringList({
      nullable: true,
      description: 'Owners, as addresses of the chain it is spendable on (X-avax1…, C-avax1…).',
      resolve: (u) =>
        u.utxo?.transfer?.addressHex.map(
          (hex) => `${u.chain}-${bech32Encode(u.hrp, Buffer.from(hex, 'hex'))}`,
        ) ?? null,
    }),
    hex: t.exposeString('hex', {
      description: "The UTXO in the node's hex encoding (0x, bytes, 4-byte checksum).",
    }),
  }),
});

/** A UTXO list's arguments: the owners' addresses and, for atomic UTXOs, the chain they came from. */
export interface UtxoListArgs extends ConnectionArgs {
  addresses: string[];
  sourceChain?: string | null;
}

/** The UTXOs of addresses on a node's X-Chain, or the atomic UTXOs on its C-Chain, checked first. */
export function resolveUtxoConnection(
  args: UtxoListArgs,
  ctx: GatewayContext,
  nodeName: string,
  chain: 'X' | 'C',
) {
  const { addresses, hrp } = parseChainAddresses(args.addresses, chain);
  const sourceChain =
    args.sourceChain == null ? undefined : parseChainRef(args.sourceChain, 'sourceChain');
  const q = { node: nodeName, chain, addresses, hrp, sourceChain };
  const node = nodeByName(ctx, q.node);
  const query = { addresses: q.addresses, sourceChain: q.sourceChain, limit: NODE_UTXO_PAGE_SIZE };
  const pages = node.pages((c, pageToken) =>
    q.chain === 'X'
      ? c.xChain.utxos(query, pageToken)
      : c.cChain.atomicUtxos({ ...query, sourceChain: q.sourceChain ?? '' }, pageToken),
  );
  return resolveTokenConnection<UtxoShape>(args, ctx.connections, {
    pages: pages.mapItems((hex) => ({
      node: q.node,
      chain: q.chain,
      hrp: q.hrp,
      sourceChain: q.sourceChain,
      hex,
      utxo: decodeUtxo(hex),
    })),
    pageSize: NODE_UTXO_PAGE_SIZE,
    itemKey: (u) => u.hex,
  });
}

/** A node chain's UTXO list field (the X-Chain's UTXOs, the C-Chain's atomic UTXOs). */
export function utxoConnection<S extends { node: string }>(
  t: ObjectFields<S>,
  chain: 'X' | 'C',
  options: {
    description: string;
    addresses: string;
    sourceChain: string;
    sourceRequired: boolean;
    page: string;
    edge: string;
  },
) {
  return t.connection(
    {
      type: UtxoRef,
      nullable: true,
      description: options.description,
      args: {
        addresses: t.arg.stringList({ required: true, description: options.addresses }),
        sourceChain: t.arg.string({
          required: options.sourceRequired,
          description: options.sourceChain,
        }),
      },
      resolve: (x, args, ctx) => resolveUtxoConnection(args, ctx, x.node, chain),
    },
    { description: options.page },
    { description: options.edge },
  );
}
