import type { GatewayContext } from '../../context.js';
import { UpstreamError } from '../../upstream/errors.js';
import type { Page } from '../../upstream/request.js';
import type { CurrencyCode } from '../../upstream/schemas/evm.js';
import type { AddressChains, CollectibleBalance, Erc1155TokenBalance, Erc20TokenBalance, Erc721TokenBalance } from '../../upstream/schemas/portfolio.js';
import { builder } from '../builder.js';
import { resolveTokenConnection, type ConnectionArgs } from '../connection.js';
import { given, registerArgumentCheck } from '../argument-checks.js';
import { badInput } from '../errors.js';
import { parseBlockNumber, parseEvmAddress } from '../inputs.js';
import { AddressRef, type AddressShape } from './address.js';
import { ChainRef } from './chain.js';
import { ContractRef } from './contract.js';
import { CurrencyCodeEnum, MoneyRef } from './money.js';
import { Erc1155TokenRef, Erc721TokenRef } from './token.js';

/**
 * An address's portfolio on one EVM chain (the chain of the `Address`): ERC-20, ERC-721, ERC-1155 and
 * collectible balances, each a Relay connection over the upstream's page tokens with every filter of its
 * route, each token linked to its `Contract` (loaded per distinct contract, deduplicated); and the chains
 * the address is active on. Balances change with every transfer: their pages are head data, and a cursor
 * resumes in the live list after its token (see `mutableItems` in connection.ts).
 */

/** At most this many contracts in one `contractAddresses` filter (the upstream takes them in one query value). */
const MAX_CONTRACT_FILTER = 100;

/** The contract's metadata, or null when the indexer knows no contract there (an unknown chain still fails). */
export async function contractOrNull(ctx: GatewayContext, chainId: string, address: string) {
  try {
    return await ctx.loaders.evm.contract.load({ chainId, address: address.toLowerCase() });
  } catch (e) {
    if (!(e instanceof UpstreamError && e.kind === 'status' && e.status === 404)) throw e;
    await ctx.loaders.evm.chain.load(chainId);
    return null;
  }
}

const contractField = {
  type: ContractRef,
  nullable: true,
  description: 'The token contract’s metadata (one call per distinct contract, cached); null when the indexer knows no contract there.',
  resolve: (b: { chainId: string; address: string }, _args: object, ctx: GatewayContext) => contractOrNull(ctx, b.chainId, b.address),
} as const;

const TokenReputationEnum = builder.enumType('TokenReputation', {
  description: 'The indexer’s security analysis of a token (C-Chain only).',
  values: {
    MALICIOUS: { value: 'Malicious', description: 'The token shows signs of being a scam or spam token.' },
    BENIGN: { value: 'Benign', description: 'The token is likely safe.' },
  } as const,
});

export const Erc20BalanceRef = builder.objectRef<Erc20TokenBalance>('Erc20Balance').implement({
  description: 'An ERC-20 token held by an address, with its price and value when the indexer knows one.',
  fields: (t) => ({
    chainId: t.exposeString('chainId', { description: 'EVM chain id of the token’s chain (decimal string).' }),
    address: t.exposeString('address', { description: 'Token contract address, 0x-hex in checksum case.' }),
    contract: t.field(contractField),
    name: t.exposeString('name', { description: 'Token name.' }),
    symbol: t.exposeString('symbol', { description: 'Token symbol.' }),
    decimals: t.exposeInt('decimals', { description: 'Decimals of the token: divide `balance` by 10^decimals for whole tokens.' }),
    logoUri: t.exposeString('logoUri', { nullable: true, description: 'URL of the token’s logo; null when none.' }),
    balance: t.expose('balance', { type: 'BigDecimal', description: 'The balance in the token’s smallest unit.' }),
    price: t.field({ type: MoneyRef, nullable: true, description: 'Price of one token in the asked currency; null when unknown.', resolve: (b) => b.price ?? null }),
    balanceValue: t.field({ type: MoneyRef, nullable: true, description: 'Value of the balance in the asked currency; null without a price.', resolve: (b) => b.balanceValue ?? null }),
    tokenReputation: t.field({
      type: TokenReputationEnum,
      nullable: true,
      description: 'The indexer’s security analysis of the token; null when unknown (and off the C-Chain).',
      resolve: (b) => b.tokenReputation ?? null,
    }),
  }),
});

export const Erc721BalanceRef = builder.objectRef<Erc721TokenBalance>('Erc721Balance').implement({
  description: 'An ERC-721 token (an NFT) owned by an address.',
  fields: (t) => ({
    chainId: t.exposeString('chainId', { description: 'EVM chain id of the collection’s chain (decimal string).' }),
    tokenId: t.exposeString('tokenId', { description: 'The token id (a decimal string: it may exceed 64 bits).' }),
    token: t.field({ type: Erc721TokenRef, description: 'The token, its metadata and owner.', resolve: (b) => b }),
    contract: t.field(contractField),
  }),
});

export const Erc1155BalanceRef = builder.objectRef<Erc1155TokenBalance>('Erc1155Balance').implement({
  description: 'An amount of one ERC-1155 token id held by an address.',
  fields: (t) => ({
    chainId: t.exposeString('chainId', { description: 'EVM chain id of the contract’s chain (decimal string).' }),
    tokenId: t.exposeString('tokenId', { description: 'The token id (a decimal string: it may exceed 64 bits).' }),
    balance: t.expose('balance', { type: 'BigDecimal', description: 'How many of this token id the address holds.' }),
    token: t.field({ type: Erc1155TokenRef, description: 'The token id and its metadata.', resolve: (b) => b }),
    contract: t.field(contractField),
  }),
});

export const CollectibleBalanceRef = builder.unionType('CollectibleBalance', {
  description: 'An NFT an address holds: an ERC-721 token or an amount of an ERC-1155 token id.',
  types: [Erc721BalanceRef, Erc1155BalanceRef],
  resolveType: (b) => (b.ercType === 'ERC-721' ? Erc721BalanceRef : Erc1155BalanceRef),
});

const AddressChainsRef = builder.objectRef<AddressChains>('AddressChains').implement({
  description: 'The chains an address has sent or received transactions or token transfers on (refreshed upstream every 15 minutes).',
  fields: (t) => ({
    indexedChains: t.field({ type: [ChainRef], description: 'Chains the Data API indexes.', resolve: (c) => c.indexedChains }),
    unindexedChainIds: t.exposeStringList('unindexedChains', { description: 'Ids of chains the address is active on that the Data API does not index.' }),
  }),
});

/** `contractAddress`: one EVM address, lower-cased; checked before any call. */
const oneContract = (v: string | null | undefined, argument = 'contractAddress') => (v == null ? undefined : parseEvmAddress(v, argument));

interface BalanceList<T> {
  name: string;
  a: AddressShape;
  filters: Record<string, string | boolean | undefined>;
  load: (pageToken: string | null) => Promise<Page<T>>;
  id: (item: T) => string;
  amount: (item: T) => string;
}

function balanceConnection<T>(args: ConnectionArgs, ctx: GatewayContext, o: BalanceList<T>) {
  const filterKey = Object.entries(o.filters).map(([k, v]) => `${k}=${v ?? ''}`).join('&');
  return resolveTokenConnection<T>(args, ctx.connections, {
    listKey: `${o.name}|${o.a.chainId}|${o.a.address}|${filterKey}`,
    pageSize: ctx.loaders.tokens.pageSizes.balances,
    // A balance changes: the head snapshot keeps a cursor's position, the live list supplies what follows.
    itemKey: (x) => `${o.id(x)}=${o.amount(x)}`,
    idOf: o.id,
    mutableItems: true,
    fetchPage: o.load,
  });
}

/** The erc20Balances filters, parsed (each failure a BAD_USER_INPUT naming its argument). */
function erc20Filter(args: { blockNumber?: unknown; filterSpamTokens?: unknown; contractAddresses?: unknown; currency?: unknown }) {
  const blockNumber = given(args.blockNumber) === undefined ? undefined : String(parseBlockNumber(given(args.blockNumber)!, 'blockNumber'));
  const list = Array.isArray(args.contractAddresses) ? (args.contractAddresses as string[]) : undefined;
  if (list && (list.length === 0 || list.length > MAX_CONTRACT_FILTER)) {
    throw badInput('contractAddresses', `contractAddresses must list 1 to ${MAX_CONTRACT_FILTER} addresses`);
  }
  const contractAddresses = list ? [...new Set(list.map((x) => parseEvmAddress(String(x), 'contractAddresses')))].sort() : undefined;
  const filterSpamTokens = typeof args.filterSpamTokens === 'boolean' ? args.filterSpamTokens : true;
  return { blockNumber, filterSpamTokens, contractAddresses, currency: (given(args.currency) ?? undefined) as CurrencyCode | undefined };
}

/** The NFT balance filters (`blockNumber` only on erc1155Balances), parsed. */
function nftFilter(args: { blockNumber?: unknown; contractAddress?: unknown }) {
  const block = given(args.blockNumber);
  return {
    blockNumber: block === undefined ? undefined : String(parseBlockNumber(block, 'blockNumber')),
    contractAddress: oneContract(given(args.contractAddress)),
  };
}

// Checked before execution too: an address reached through a list must not cost that list's call first.
registerArgumentCheck(['Address'], 'erc20Balances', erc20Filter);
for (const field of ['erc721Balances', 'erc1155Balances', 'collectibleBalances']) registerArgumentCheck(['Address'], field, nftFilter);

const nftId = (b: { address: string; tokenId: string }) => `${b.address.toLowerCase()}:${b.tokenId}`;
const contractArg = { description: 'Only tokens of this contract (0x + 40 hex).' };
const blockArg = { description: 'Balances at this block (default: the latest).' };

builder.objectFields(AddressRef, (t) => ({
  erc20Balances: t.connection(
    {
      type: Erc20BalanceRef,
      nullable: true,
      description: 'ERC-20 tokens this address holds on its chain (`listErc20Balances`), ordered as the upstream orders them. Forward paging only.',
      args: {
        blockNumber: t.arg({ type: 'BigDecimal', required: false, description: blockArg.description }),
        filterSpamTokens: t.arg.boolean({ required: false, defaultValue: true, description: 'Leave out tokens the indexer flags as spam. @default true' }),
        contractAddresses: t.arg.stringList({ required: false, description: `Only these token contracts (at most ${MAX_CONTRACT_FILTER}).` }),
        currency: t.arg({ type: CurrencyCodeEnum, required: false, description: 'Currency of prices and values (default: the upstream’s, USD).' }),
      },
      resolve: (a, args, ctx) => {
        // The enum's value (e.g. "eur") arrives here; the pre-execution check sees its name, which it does not read.
        const f = erc20Filter({ ...args, currency: undefined });
        f.currency = (args.currency ?? undefined) as CurrencyCode | undefined;
        const { contractAddresses } = f;
        return balanceConnection<Erc20TokenBalance>(args, ctx, {
          name: 'erc20Balances',
          a,
          filters: { ...f, contractAddresses: contractAddresses?.join(',') },
          load: (pageToken) => ctx.loaders.tokens.erc20BalancesPage.load({ chainId: a.chainId, address: a.address, pageToken, ...f }),
          id: (b) => b.address.toLowerCase(),
          amount: (b) => b.balance,
        });
      },
    },
    { name: 'Erc20BalanceConnection', description: 'A page of ERC-20 balances.' },
    { name: 'Erc20BalanceEdge', description: 'An ERC-20 balance and its cursor.' },
  ),
  erc721Balances: t.connection(
    {
      type: Erc721BalanceRef,
      nullable: true,
      description: 'ERC-721 tokens (NFTs) this address owns on its chain (`listErc721Balances`). Forward paging only.',
      args: { contractAddress: t.arg.string({ required: false, ...contractArg }) },
      resolve: (a, args, ctx) => {
        const { contractAddress } = nftFilter(args);
        return balanceConnection<Erc721TokenBalance>(args, ctx, {
          name: 'erc721Balances',
          a,
          filters: { contractAddress },
          load: (pageToken) => ctx.loaders.tokens.erc721BalancesPage.load({ chainId: a.chainId, address: a.address, pageToken, contractAddress }),
          id: nftId,
          amount: () => '1',
        });
      },
    },
    { name: 'Erc721BalanceConnection', description: 'A page of ERC-721 balances.' },
    { name: 'Erc721BalanceEdge', description: 'An owned ERC-721 token and its cursor.' },
  ),
  erc1155Balances: t.connection(
    {
      type: Erc1155BalanceRef,
      nullable: true,
      description: 'ERC-1155 token ids this address holds on its chain (`listErc1155Balances`). Forward paging only.',
      args: {
        blockNumber: t.arg({ type: 'BigDecimal', required: false, description: blockArg.description }),
        contractAddress: t.arg.string({ required: false, ...contractArg }),
      },
      resolve: (a, args, ctx) => {
        const { blockNumber, contractAddress } = nftFilter(args);
        return balanceConnection<Erc1155TokenBalance>(args, ctx, {
          name: 'erc1155Balances',
          a,
          filters: { blockNumber, contractAddress },
          load: (pageToken) => ctx.loaders.tokens.erc1155BalancesPage.load({ chainId: a.chainId, address: a.address, pageToken, blockNumber, contractAddress }),
          id: nftId,
          amount: (b) => b.balance,
        });
      },
    },
    { name: 'Erc1155BalanceConnection', description: 'A page of ERC-1155 balances.' },
    { name: 'Erc1155BalanceEdge', description: 'An ERC-1155 balance and its cursor.' },
  ),
  collectibleBalances: t.connection(
    {
      type: CollectibleBalanceRef,
      nullable: true,
      description: 'ERC-721 and ERC-1155 tokens this address holds on its chain (`listCollectibleBalances`). Forward paging only.',
      args: { contractAddress: t.arg.string({ required: false, ...contractArg }) },
      resolve: (a, args, ctx) => {
        const { contractAddress } = nftFilter(args);
        return balanceConnection<CollectibleBalance>(args, ctx, {
          name: 'collectibleBalances',
          a,
          filters: { contractAddress },
          load: (pageToken) => ctx.loaders.tokens.collectibleBalancesPage.load({ chainId: a.chainId, address: a.address, pageToken, contractAddress }),
          id: nftId,
          amount: (b) => ('balance' in b ? b.balance : '1'),
        });
      },
    },
    { name: 'CollectibleBalanceConnection', description: 'A page of collectible balances.' },
    { name: 'CollectibleBalanceEdge', description: 'A collectible balance and its cursor.' },
  ),
  chains: t.field({
    type: AddressChainsRef,
    nullable: true,
    description: 'Every chain this address is active on, across networks (`listAddressChains`), not only this address’s own chain.',
    resolve: async (a, _args, ctx) => {
      const chains = await ctx.loaders.tokens.addressChains.load(a.address);
      for (const c of chains.indexedChains) ctx.loaders.evm.chain.prime(c.chainId, c);
      return chains;
    },
  }),
}));
