import type { GatewayContext } from '../../context.js';
import { isUpstreamStatus } from '../../upstream/errors.js';
import type {
  AddressChains,
  Erc20TokenBalance,
  Erc721TokenBalance,
  Erc1155TokenBalance,
} from '../../upstream/schemas/portfolio.js';
import { builder } from '../builder.js';
import { exposed, refOrNull, TOKEN_METADATA } from '../expose.js';
import { TOKEN_ID } from '../rows.js';
import { ChainRef } from './chain.js';
import { ContractRef } from './contract.js';
import { MoneyRef } from './money.js';
import { Erc721TokenRef, Erc1155TokenRef } from './token.js';

/**
 * The items of an address's balance lists (src/schema/types/portfolio.ts): an ERC-20 amount, an
 * owned ERC-721 token, an amount of an ERC-1155 token id, each linked to its token contract's
 * metadata; and the chains an address is active on.
 */

/**
 * The contract's metadata, or null when the indexer knows no contract there (an unknown chain still
 * fails).
 */
export async function contractOrNull(ctx: GatewayContext, chainId: string, address: string) {
  try {
    return await ctx.loaders.evm.contract.load({ chainId, address: address.toLowerCase() });
  } catch (e) {
    if (!isUpstreamStatus(e, 404)) throw e;
    await ctx.loaders.evm.chain.load(chainId);
    return null;
  }
}

const contractField = {
  type: ContractRef,
  nullable: true,
  description:
    'The token contract’s metadata (one call per distinct contract, cached); null when the ' +
    'indexer knows no contract there.',
  resolve: (b: { chainId: string; address: string }, _args: object, ctx: GatewayContext) =>
    contractOrNull(ctx, b.chainId, b.address),
} as const;

const TokenReputationEnum = builder.enumType('TokenReputation', {
  description: 'The indexer’s security analysis of a token (C-Chain only).',
  values: {
    MALICIOUS: {
      value: 'Malicious',
      description: 'The token shows signs of being a scam or spam token.',
    },
    BENIGN: { value: 'Benign', description: 'The token is likely safe.' },
  } as const,
});

export const Erc20BalanceRef = builder.objectRef<Erc20TokenBalance>('Erc20Balance').implement({
  description:
    'An ERC-20 token held by an address, with its price and value when the indexer knows one.',
  fields: (t) => ({
    ...exposed(t, {
      chainId: ['String', 'EVM chain id of the token’s chain (decimal string).'],
      address: ['EvmAddress', 'Token contract address, lower-case 0x-hex.'],
    }),
    contract: t.field(contractField),
    ...exposed(t, {
      ...TOKEN_METADATA,
      balance: ['BigDecimal', 'The balance in the token’s smallest unit.'],
      price: refOrNull(MoneyRef, 'Price of one token in the asked currency; null when unknown.'),
      balanceValue: refOrNull(
        MoneyRef,
        'Value of the balance in the asked currency; null without a price.',
      ),
      tokenReputation: refOrNull(
        TokenReputationEnum,
        'The indexer’s security analysis of the token; null when unknown (and off the C-Chain).',
      ),
    }),
  }),
});

export const Erc721BalanceRef = builder.objectRef<Erc721TokenBalance>('Erc721Balance').implement({
  description: 'An ERC-721 token (an NFT) owned by an address.',
  fields: (t) => ({
    ...exposed(t, {
      chainId: ['String', 'EVM chain id of the collection’s chain (decimal string).'],
      ...TOKEN_ID,
    }),
    token: t.field({
      type: Erc721TokenRef,
      description: 'The token, its metadata and owner.',
      resolve: (b) => b,
    }),
    contract: t.field(contractField),
  }),
});

export const Erc1155BalanceRef = builder
  .objectRef<Erc1155TokenBalance>('Erc1155Balance')
  .implement({
    description: 'An amount of one ERC-1155 token id held by an address.',
    fields: (t) => ({
      ...exposed(t, {
        chainId: ['String', 'EVM chain id of the contract’s chain (decimal string).'],
        ...TOKEN_ID,
        balance: ['BigDecimal', 'How many of this token id the address holds.'],
      }),
      token: t.field({
        type: Erc1155TokenRef,
        description: 'The token id and its metadata.',
        resolve: (b) => b,
      }),
      contract: t.field(contractField),
    }),
  });

export const CollectibleBalanceRef = builder.unionType('CollectibleBalance', {
  description: 'An NFT an address holds: an ERC-721 token or an amount of an ERC-1155 token id.',
  types: [Erc721BalanceRef, Erc1155BalanceRef],
  resolveType: (b) => (b.ercType === 'ERC-721' ? Erc721BalanceRef : Erc1155BalanceRef),
});

export const AddressChainsRef = builder.objectRef<AddressChains>('AddressChains').implement({
  description:
    'The chains an address has sent or received transactions or token transfers on (refreshed ' +
    'upstream every 15 minutes).',
  fields: (t) => ({
    indexedChains: t.field({
      type: [ChainRef],
      description: 'Chains the Data API indexes.',
      resolve: (c) => c.indexedChains,
    }),
    unindexedChainIds: t.exposeStringList('unindexedChains', {
      description: 'Ids of chains the address is active on that the Data API does not index.',
    }),
  }),
});
