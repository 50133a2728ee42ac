import type { GraphQLError, GraphQLSchema, GraphQLUnionType } from 'graphql';
import { badInput, gqlError } from '../errors.js';
import { builder } from './builder.js';
import { parseBlockId, parseChainId, parseEvmAddress, parseTxHash } from './inputs.js';
import { AddressRef } from './types/address.js';
import { BlockRef, loadBlock } from './types/block.js';
import { ChainRef, loadChain } from './types/chain.js';
import {
  Erc20ContractRef,
  Erc721ContractRef,
  Erc1155ContractRef,
  loadContract,
  UnknownContractRef,
} from './types/contract.js';
import {
  branded as brandedMessage,
  DeliveredIcmMessageRef,
  DeliveredSourceNotIndexedIcmMessageRef,
  PendingIcmMessageRef,
  parseMessageId,
} from './types/icm-message.js';
import { L1ValidatorRef, loadL1Validator } from './types/l1-validator.js';
import { loadTransaction, TransactionRef } from './types/transaction.js';
import {
  ActiveValidatorRef,
  CompletedValidatorRef,
  loadValidator,
  PendingValidatorRef,
  RemovedValidatorRef,
} from './types/validator.js';

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
  resolveReference: async (ref, ctx) =>
    loadChain(ctx, parseChainId(String(ref.chainId), 'chainId')),
});

builder.asEntity(BlockRef, {
  key: [
    builder.selection<{ chainId: string; number: string }>('chainId number'),
    builder.selection<{ chainId: string; hash: string }>('chainId hash'),
  ],
  resolveReference: async (ref, ctx) =>
    loadBlock(ctx, {
      chainId: parseChainId(String(ref.chainId), 'chainId'),
      blockId:
        'number' in ref
          ? parseBlockId(String(ref.number), 'number')
          : parseBlockId(String(ref.hash), 'hash'),
    }),
});

builder.asEntity(TransactionRef, {
  key: builder.selection<{ chainId: string; hash: string }>('chainId hash'),
  resolveReference: async (ref, ctx) =>
    loadTransaction(ctx, {
      chainId: parseChainId(String(ref.chainId), 'chainId'),
      txHash: parseTxHash(String(ref.hash), 'hash'),
    }),
});

// A reference to an address is taken as given, like `address(chainId, address)`: no upstream call, its
// fields load lazily, so a reference costs what the plain query costs. (`node(id)` goes further and
// checks that the chain is served: a Relay id must name something that exists.)
builder.asEntity(AddressRef, {
  key: builder.selection<{ chainId: string; address: string }>('chainId address'),
  resolveReference: async (ref) => ({
    chainId: parseChainId(String(ref.chainId), 'chainId'),
    address: parseEvmAddress(String(ref.address), 'address'),
  }),
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
    resolveReference: async (key, ctx) =>
      (await loadContract(ctx, ercType, {
        chainId: parseChainId(String(key.chainId), 'chainId'),
        address: parseEvmAddress(String(key.address), 'address'),
      })) as never,
  });
}

// A validation period: network + node id + the transaction that added it (a node validates many times).
// A reference may name an older status type; the answer is the period in its current status.
for (const ref of [
  CompletedValidatorRef,
  ActiveValidatorRef,
  PendingValidatorRef,
  RemovedValidatorRef,
]) {
  builder.asEntity(ref, {
    key: builder.selection<{ network: string; nodeId: string; txHash: string }>(
      'network nodeId txHash',
    ),
    resolveReference: async (key, ctx) =>
      (await loadValidator(
        `${String(key.network)}:${String(key.nodeId)}:${String(key.txHash)}`,
        ctx,
      )) as never,
  });
}

// An L1 validation id names one validation on one network; a reference need not say which, so mainnet is
// tried first, then fuji (one cached list call each).
builder.asEntity(L1ValidatorRef, {
  key: builder.selection<{ validationId: string }>('validationId'),
  resolveReference: async (key, ctx) => {
    try {
      return await loadL1Validator(`mainnet:${String(key.validationId)}`, ctx);
    } catch (e) {
      if ((e as { extensions?: { code?: unknown } }).extensions?.code !== 'NOT_FOUND') throw e;
      return loadL1Validator(`fuji:${String(key.validationId)}`, ctx);
    }
  },
});

// An interchain message by its id, in its current status (a pending message may have been delivered since).
for (const ref of [
  PendingIcmMessageRef,
  DeliveredIcmMessageRef,
  DeliveredSourceNotIndexedIcmMessageRef,
]) {
  builder.asEntity(ref, {
    key: builder.selection<{ messageId: string }>('messageId'),
    resolveReference: async (key, ctx) =>
      brandedMessage(
        await ctx.loaders.icm.message.load(parseMessageId(String(key.messageId), 'messageId')),
      ) as never,
  });
}

/**
 * Makes `_entities` safe for any list of representations. @apollo/subgraph's resolver maps the list and
 * throws synchronously on an unknown `__typename`, dropping the promises it already started for earlier
 * items (their rejections went unhandled and took the process down). Here every representation is checked
 * before any resolver starts, and each valid one is resolved on its own: a bad item is an error at its own
 * index (BAD_USER_INPUT naming it), never a thrown list, and every promise started is awaited by graphql.
 */
export function guardEntitiesField(schema: GraphQLSchema): GraphQLSchema {
  const field = schema.getQueryType()?.getFields()._entities;
  // Duck-typed: @apollo/subgraph may build the schema with the CommonJS copy of graphql, which fails
  // graphql's `instanceof` checks from this (ESM) copy.
  const entityUnion = schema.getType('_Entity') as GraphQLUnionType | undefined;
  if (!field?.resolve || typeof entityUnion?.getTypes !== 'function') return schema;
  const entityTypes = new Set(entityUnion.getTypes().map((t) => t.name));
  const resolveOne = field.resolve;
  field.resolve = (source, args: { representations?: unknown }, ctx, info) => {
    const representations = Array.isArray(args.representations) ? args.representations : [];
    const invalid = representations.map((rep, i) => representationError(rep, i, entityTypes));
    return representations.map((rep, i) => {
      const error = invalid[i];
      if (error) return error;
      try {
        const [result] = resolveOne(source, { representations: [rep] }, ctx, info) as unknown[];
        return result;
      } catch (e) {
        return e instanceof Error
          ? e
          : gqlError('BAD_USER_INPUT', `representations[${i}] could not be resolved`);
      }
    });
  };
  return schema;
}

function representationError(
  rep: unknown,
  index: number,
  entityTypes: Set<string>,
): GraphQLError | undefined {
  if (typeof rep !== 'object' || rep === null || Array.isArray(rep))
    return badInput(
      'representations',
      `representations[${index}] must be an object with a __typename`,
      { index },
    );
  const typename = (rep as { __typename?: unknown }).__typename;
  if (typeof typename !== 'string' || !entityTypes.has(typename))
    return badInput(
      'representations',
      `representations[${index}]: ${JSON.stringify(typename ?? null).slice(0, 80)} is not an entity type of this subgraph`,
      {
        index,
      },
    );
  return undefined;
}
