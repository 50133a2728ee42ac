import { builder } from './builder.js';
import { parseBlockId, parseChainId, parseEvmAddress, parseTxHash } from './inputs.js';
import { gqlError } from './errors.js';
import { AddressRef } from './types/address.js';
import { Erc1155ContractRef, Erc20ContractRef, Erc721ContractRef, UnknownContractRef } from './types/contract.js';
import { ChainRef } from './types/chain.js';
import { BlockRef } from './types/block.js';
import { TransactionRef } from './types/transaction.js';

/**
 * Apollo Federation v2 entities, keyed by natural identity (never by our Relay global ids) so other
 * subgraphs can reference them knowing only chain data. `resolveReference` goes through the same
 * loaders and shared cache as every other field: a hundred references cost what a hundred lookups cost.
 * A malformed representation fails for that entity only (BAD_USER_INPUT naming the key field): every
 * resolveReference is async, because @apollo/subgraph's `_entities` isolates a rejected promise to its
 * item, while a synchronous throw would fail the whole list.
 */
builder.asEntity(ChainRef, {
  key: builder.selection<{ chainId: string }>('chainId'),
  resolveReference: async (ref, ctx) => ctx.loaders.evm.chain.load(parseChainId(String(ref.chainId), 'chainId')),
});

builder.asEntity(BlockRef, {
  key: [builder.selection<{ chainId: string; number: string }>('chainId number'), builder.selection<{ chainId: string; hash: string }>('chainId hash')],
  resolveReference: async (ref, ctx) =>
    ctx.loaders.evm.block.load({
      chainId: parseChainId(String(ref.chainId), 'chainId'),
      blockId: 'number' in ref ? parseBlockId(String(ref.number), 'number') : parseBlockId(String(ref.hash), 'hash'),
    }),
});

builder.asEntity(TransactionRef, {
  key: builder.selection<{ chainId: string; hash: string }>('chainId hash'),
  resolveReference: async (ref, ctx) =>
    (await ctx.loaders.evm.transaction.load({ chainId: parseChainId(String(ref.chainId), 'chainId'), txHash: parseTxHash(String(ref.hash), 'hash') }))
      .nativeTransaction,
});

// An address needs no upstream call to exist: its fields load lazily, exactly as in `address(chainId, address)`.
builder.asEntity(AddressRef, {
  key: builder.selection<{ chainId: string; address: string }>('chainId address'),
  resolveReference: async (ref) => ({ chainId: parseChainId(String(ref.chainId), 'chainId'), address: parseEvmAddress(String(ref.address), 'address') }),
});

// Contract metadata, per token standard, keyed like its address; a reference of the wrong standard is NOT_FOUND.
for (const [ref, ercType] of [
  [Erc20ContractRef, 'ERC-20'],
  [Erc721ContractRef, 'ERC-721'],
  [Erc1155ContractRef, 'ERC-1155'],
  [UnknownContractRef, 'UNKNOWN'],
] as const) {
  builder.asEntity(ref, {
    key: builder.selection<{ chainId: string; address: string }>('chainId address'),
    resolveReference: async (key, ctx) => {
      const c = await ctx.loaders.evm.contract.load({ chainId: parseChainId(String(key.chainId), 'chainId'), address: parseEvmAddress(String(key.address), 'address') });
      if (c.ercType !== ercType) throw gqlError('NOT_FOUND', `The contract at ${key.address} is ${c.ercType}, not ${ercType}`);
      return c as never;
    },
  });
}
