import type { NativeTokenBalance } from '../../upstream/schemas/contracts.js';
import { builder } from '../builder.js';
import { exposed, refOrNull, TOKEN_METADATA } from '../expose.js';
import { parseBlockNumber } from '../inputs.js';
import { renamedArg, useInstead } from '../renamed-args.js';
import { AddressRef } from './address.js';
import { chainOf } from './chain.js';
import { CurrencyCodeEnum, MoneyRef } from './money.js';

/** An address's native-token balance, at the head or at a given block, priced in the asked currency. */
const NativeBalanceRef = builder
  .objectRef<NativeTokenBalance & { blockNumber: string | null }>('NativeBalance')
  .implement({
    description:
      'The balance of a chain’s native token held by an address, with its price and value.',
    fields: (t) => ({
      chainId: t.exposeString('chainId', {
        description: 'EVM chain id of the chain (decimal string).',
      }),
      ...chainOf(t),
      ...exposed(t, {
        blockNumber: [
          'BigDecimal?',
          'The block the balance was read at, as asked; null for the latest block.',
        ],
        ...TOKEN_METADATA,
        balance: ['BigDecimal', 'In the token’s smallest unit (wei for AVAX).'],
        price: refOrNull(MoneyRef, 'The current price of one token.'),
        balanceValue: refOrNull(MoneyRef, 'The balance’s value at the current price.'),
      }),
    }),
  });

builder.objectFields(AddressRef, (t) => ({
  balance: t.field({
    type: NativeBalanceRef,
    nullable: true,
    description:
      'The native-token balance (e.g. AVAX on the C-Chain), at the latest block or at `block`.',
    args: {
      block: t.arg({
        type: 'BigDecimal',
        required: false,
        description: 'Read the balance at this block number (default: the latest).',
      }),
      blockNumber: t.arg({
        type: 'BigDecimal',
        required: false,
        description: 'Read the balance at this block (default: the latest).',
        deprecationReason: useInstead('block'),
      }),
      currency: t.arg({
        type: CurrencyCodeEnum,
        required: false,
        defaultValue: 'usd',
        description: 'Currency of the price and value. @default USD',
      }),
    },
    resolve: async (a, args, ctx) => {
      const block = renamedArg(args, 'block', 'blockNumber');
      const blockNumber =
        block.value === undefined
          ? undefined
          : String(parseBlockNumber(block.value, block.argument));
      const b = await ctx.loaders.evm.nativeBalance.load({
        chainId: a.chainId,
        address: a.address,
        blockNumber,
        currency: args.currency ?? 'usd',
      });
      return { ...b, blockNumber: blockNumber ?? null };
    },
  }),
}));
