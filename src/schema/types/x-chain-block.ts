import type { GatewayContext } from '../../context.js';
import { badInput } from '../../errors.js';
import type { XBlockJson } from '../../upstream/schemas/node-avm.js';
import { hexBytes, idOfBytes } from '../../upstream/schemas/node-codec.js';
import { builder } from '../builder.js';
import { isoOf } from '../scalars.js';
import { nodeByName, parseId } from './network-node-inputs.js';
import { XChainTransactionRef } from './x-chain-tx.js';

/**
 * An X-Chain block (post-Cortina, linear) on a configured node, by id or height (avm.getBlock /
 * avm.getBlockByHeight). Its fields come from the node's `json` encoding (one call for the header and the
 * decoded transactions); `hex` from the `hex` encoding, only when selected. Accepted blocks are final:
 * cached for long. Global id: `XChainBlock:<node>:<block id>`.
 */
export interface XChainBlockShape {
  node: string;
  ref: { id: string } | { height: string };
}

const decoded = (b: XChainBlockShape, ctx: GatewayContext): Promise<XBlockJson> =>
  nodeByName(ctx, b.node).read((c) => c.xChain.blockJson(b.ref));

/** The id: known when asked by id; else as the node reports it, or the sha256 of the block's bytes. */
async function blockIdOf(b: XChainBlockShape, ctx: GatewayContext): Promise<string> {
  if ('id' in b.ref) return b.ref.id;
  const json = await decoded(b, ctx);
  if (json.id) return json.id;
  // The contract has checked the encoding (a block whose bytes are not checksummed hex fails there).
  const hex = await nodeByName(ctx, b.node).read((c) => c.xChain.blockHex(b.ref));
  return idOfBytes(hexBytes(hex) ?? new Uint8Array());
}

export const XChainBlockRef = builder.objectRef<XChainBlockShape>('XChainBlock');

builder.node(XChainBlockRef, {
  description: 'A block of the X-Chain as a configured node serves it.',
  id: {
    // The id is known without a call when the block was asked for by id.
    resolve: async (b, _a, ctx) => `${b.node}:${await blockIdOf(b, ctx)}`,
  },
  loadOne: async (id, ctx) => {
    const [node, blockId] = id.split(':');
    if (!node || !blockId) throw badInput('id', 'Malformed XChainBlock id');
    const block: XChainBlockShape = { node, ref: { id: parseId(blockId, 'id', 'block id') } };
    await decoded(block, ctx); // it exists (final: cached)
    return block;
  },
  fields: (t) => ({
    blockId: t.string({
      nullable: true,
      description: 'The block id (CB58).',
      resolve: (b, _a, ctx) => blockIdOf(b, ctx),
    }),
    height: t.field({
      type: 'BigDecimal',
      nullable: true,
      description: 'Height of the block (decimal string).',
      resolve: async (b, _a, ctx) =>
        'height' in b.ref ? b.ref.height : (await decoded(b, ctx)).height,
    }),
    parentId: t.string({
      nullable: true,
      description: 'Id (CB58) of the parent block.',
      resolve: async (b, _a, ctx) => (await decoded(b, ctx)).parentID,
    }),
    parent: t.field({
      type: XChainBlockRef,
      nullable: true,
      description: 'The parent block.',
      resolve: async (b, _a, ctx) => ({
        node: b.node,
        ref: { id: (await decoded(b, ctx)).parentID },
      }),
    }),
    timestamp: t.field({
      type: 'Timestamp',
      nullable: true,
      description: 'Block time, Unix seconds.',
      resolve: async (b, _a, ctx) => Number((await decoded(b, ctx)).time),
    }),
    timestampIso: t.string({
      nullable: true,
      description: '`timestamp` as an ISO 8601 UTC date-time.',
      resolve: async (b, _a, ctx) => isoOf(Number((await decoded(b, ctx)).time)),
    }),
    merkleRoot: t.string({
      nullable: true,
      description:
        "Merkle root of the block's transactions (when the block format has one); null otherwise.",
      resolve: async (b, _a, ctx) => (await decoded(b, ctx)).merkleRoot ?? null,
    }),
    txCount: t.int({
      nullable: true,
      description: 'Number of transactions in the block.',
      resolve: async (b, _a, ctx) => (await decoded(b, ctx)).txs.length,
    }),
    hex: t.string({
      nullable: true,
      description: "The block in the node's hex encoding (0x, bytes, 4-byte checksum).",
      resolve: (b, _a, ctx) => nodeByName(ctx, b.node).read((c) => c.xChain.blockHex(b.ref)),
    }),
    transactions: t.field({
      type: [XChainTransactionRef],
      nullable: true,
      description: 'The transactions of the block, in block order, decoded (the json encoding).',
      resolve: async (b, _a, ctx) =>
        (await decoded(b, ctx)).txs.map((tx) => ({ node: b.node, txId: tx.id, json: tx })),
    }),
  }),
});
