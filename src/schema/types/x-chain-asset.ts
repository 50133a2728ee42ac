import type { GatewayContext } from '../../context.js';
import { badInput } from '../../errors.js';
import type { AssetDescription } from '../../upstream/schemas/node-avm.js';
import { argTable } from '../arg-table.js';
import { builder } from '../builder.js';
import { exposed } from '../expose.js';
import { nodeByName, parseId } from './network-node-inputs.js';

/**
 * An X-Chain asset as a configured node describes it (avm.getAssetDescription). Asset descriptions never
 * change, so they are cached for long. Global id: `XChainAsset:<node>:<asset id>`.
 */
export interface XChainAssetShape extends AssetDescription {
  node: string;
}

/** Renders an integer amount of the asset's smallest unit with `denomination` decimal places (exactly, as a string). */
export function formatDenominated(amount: string, denomination: number): string {
  const negative = amount.startsWith('-');
  const digits = (negative ? amount.slice(1) : amount).replace(/^0+(?=\d)/, '');
  if (denomination === 0) return amount;
  const padded = digits.padStart(denomination + 1, '0');
  const out = `${padded.slice(0, -denomination)}.${padded.slice(-denomination)}`;
  return negative ? `-${out}` : out;
}

/** The description of an asset on a node, by id or alias (e.g. "AVAX"). */
export async function loadAsset(
  ctx: GatewayContext,
  node: string,
  asset: string,
): Promise<XChainAssetShape> {
  const d = await nodeByName(ctx, node).read((c) => c.xChain.assetDescription(asset));
  return { ...d, node };
}

export const XChainAssetRef = builder.objectRef<XChainAssetShape>('XChainAsset');

builder.node(XChainAssetRef, {
  description:
    'An asset of the X-Chain (AVAX or one created by a CreateAssetTx), as a configured node describes it.',
  id: { resolve: (a) => `${a.node}:${a.assetId}` },
  loadOne: (id, ctx) => {
    const [node, assetId] = id.split(':');
    if (!node || !assetId) throw badInput('id', 'Malformed XChainAsset id');
    return loadAsset(ctx, node, parseId(assetId, 'id', 'asset id'));
  },
  fields: (t) => ({
    ...exposed(t, {
      assetId: ['String', 'The id of the transaction that created the asset (CB58).'],
      name: ['String', 'Not necessarily unique.'],
      symbol: ['String', 'Symbol (at most 4 characters), not necessarily unique.'],
      denomination: ['Int', 'Decimal places used to display amounts (AVAX: 9).'],
    }),
    formatAmount: t.string({
      description:
        'An amount in the smallest unit, displayed with the asset’s denomination (e.g. 1500000000 nAVAX → "1.500000000").',
      args: argTable(t.arg, {
        amount: [
          'BigDecimal!',
          "Amount in the asset's smallest unit, a whole number (decimal string).",
        ],
      }),
      resolve: (a, args) => {
        if (!/^-?\d+$/.test(args.amount))
          throw badInput('amount', 'amount must be a whole number of the smallest unit');
        return formatDenominated(args.amount, a.denomination);
      },
    }),
  }),
});
