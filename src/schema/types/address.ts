import type { ObjectRef } from '@pothos/core';
import type { GatewayContext } from '../../context.js';
import type { RichAddress } from '../../upstream/schemas/evm.js';
import { argTable, CHAIN_ID_ARG, EVM_ADDRESS_ARG } from '../arg-table.js';
import { builder } from '../builder.js';
import type { GatewayTypes, ObjectFields } from '../builder-types.js';
import { evmChainIdOf } from '../chain-id.js';
import { exposed, exposedOf } from '../expose.js';
import { parseChainId, parseEvmAddress } from '../inputs.js';
import { loadEachOnChain } from '../node-load.js';
import { chainOf } from './chain.js';

/**
 * An EVM address on one chain: an account or a contract. Its natural key is (chainId, address);
 * global id `Address:<chainId>:<lower-case address>`. Reaching an address costs no upstream call:
 * every field that needs the upstream (lists, balance, contract metadata) loads lazily.
 */
export interface AddressShape {
  chainId: string;
  /** Lower-case hex: the one spelling used in keys and ids. */
  address: string;
  /** The indexer's labels, when the address was reached from an item that carries them (a transaction's from/to, a transfer). */
  label?: Omit<RichAddress, 'address'>;
}

/** An address as an upstream item names it (with its labels). */
export function addressOf(chainId: string, rich: RichAddress): AddressShape {
  const { address, ...label } = rich;
  return { chainId, address: address.toLowerCase(), label };
}

/** An address given as bare hex (no labels). */
export const addressOn = (chainId: string, address: string): AddressShape => ({
  chainId,
  address: address.toLowerCase(),
});

/** The properties of `S` that name an address: a rich one (with labels) or bare hex. */
type AddressTable<S> = {
  [P in keyof S & string]?: [S[P]] extends [RichAddress | string] ? string : never;
};

/**
 * Fields that follow addresses named by the parent to their `Address` on the parent's own chain
 * (`chainId`): `table` maps each property to its field's description; the field has its name.
 */
export function addressFields<S extends { chainId: string }, K extends 'Object' | 'Interface'>(
  t: PothosSchemaTypes.FieldBuilder<GatewayTypes, S, K>,
  table: AddressTable<NoInfer<S>>,
) {
  const fields: Record<string, PothosSchemaTypes.FieldRef<GatewayTypes, unknown, K>> = {};
  for (const [name, description] of Object.entries(table) as [keyof S & string, string][]) {
    const resolve = (parent: S): AddressShape => {
      const named = parent[name] as RichAddress | string;
      return typeof named === 'string'
        ? addressOn(parent.chainId, named)
        : addressOf(parent.chainId, named);
    };
    fields[name] = t.field({ type: AddressRef, description, resolve } as never);
  }
  return fields;
}

/** A field of the parent at one EVM address the client names (checked before any call). */
export const byEvmAddress = <S, T>(
  t: ObjectFields<S>,
  options: {
    type: ObjectRef<GatewayTypes, T>;
    description: string;
    resolve: (parent: S, address: string) => T;
  },
) =>
  t.field({
    type: options.type,
    description: options.description,
    args: argTable(t.arg, { address: EVM_ADDRESS_ARG }),
    // Pothos cannot resolve its list-or-item conditional for a generic T: the resolver gives one T.
    resolve: (parent, args) => options.resolve(parent, parseEvmAddress(args.address)) as never,
  });

export const AddressRef = builder.loadableNodeRef<AddressShape, string>('Address', {
  id: { resolve: (a) => `${a.chainId}:${a.address}` },
  load: loadEachOnChain('Address', parseEvmAddress, (ctx, chainId, address) =>
    loadAddress(ctx, { chainId, address }),
  ),
});

/**
 * An address refetched by its Relay id: it checks that the chain is one the Data API serves (one
 * slow-moving, cached call), so an id on an unknown chain is NOT_FOUND; the address's own fields load
 * lazily. (A federation reference, like `address(chainId, address)`, is taken as given.)
 */
export async function loadAddress(
  ctx: GatewayContext,
  key: { chainId: string; address: string },
): Promise<AddressShape> {
  const chain = await ctx.loaders.evm.chain.load(key.chainId);
  return { chainId: chain.chainId, address: key.address };
}

AddressRef.implement({
  description:
    'An EVM address on one chain (an account or a contract), with its activity, balance and contract metadata.',
  fields: (t) => ({
    ...exposed(t, {
      chainId: ['String', 'The EVM chain id, a decimal string (e.g. "43114").'],
      address: ['String', 'The address in lower-case hex (compare case-insensitively).'],
    }),
    ...exposedOf(t, (a) => a.label, {
      name: [
        'String?',
        'The indexer’s name for this address (a token or contract name), as the item that referenced it carries it; null when unknown or when the address was reached directly (see `contract`).',
      ],
      symbol: ['String?', 'The token symbol, as the referencing item carries it.'],
      decimals: ['Int?', 'The token decimals, as the referencing item carries it.'],
      logoUri: ['String?', 'The token or contract logo, as the referencing item carries it.'],
    }),
    ...chainOf(t),
  }),
});

builder.queryField('address', (t) =>
  t.field({
    type: AddressRef,
    nullable: true,
    description:
      'An EVM address on one chain. Costs no upstream call by itself (a blockchain id in place of an EVM chain id is looked up once): its fields load what they need.',
    args: argTable(t.arg, {
      chainId: CHAIN_ID_ARG,
      address: EVM_ADDRESS_ARG,
    }),
    resolve: async (_root, args, ctx) => {
      const chainId = parseChainId(args.chainId);
      const address = parseEvmAddress(args.address);
      // The key (and global id) uses the EVM chain id: a blockchain id is looked up (slow-moving, cached) to find it.
      return { chainId: await evmChainIdOf(chainId, ctx), address };
    },
  }),
);
