import type { GatewayContext } from '../../context.js';
import { badInput } from '../../errors.js';
import type { PagedList } from '../../loaders/request-loader.js';
import type { CurrencyCode } from '../../upstream/schemas/evm.js';
import type {
  CollectibleBalance,
  Erc20TokenBalance,
  Erc721TokenBalance,
  Erc1155TokenBalance,
} from '../../upstream/schemas/portfolio.js';
import { given, registerArgumentCheck } from '../argument-checks.js';
import { builder } from '../builder.js';
import { type ConnectionArgs, pageTypes, resolveTokenConnection } from '../connection.js';
import { parseBlockNumber, parseEvmAddress } from '../inputs.js';
import { renamedArg, useInstead } from '../renamed-args.js';
import { AddressRef, type AddressShape } from './address.js';
import { CurrencyCodeEnum } from './money.js';
import {
  AddressChainsRef,
  CollectibleBalanceRef,
  Erc20BalanceRef,
  Erc721BalanceRef,
  Erc1155BalanceRef,
} from './token-balance.js';

/**
 * An address's portfolio on one EVM chain (the chain of the `Address`): ERC-20, ERC-721, ERC-1155
 * and collectible balances, each a Relay connection over the upstream's page tokens with every
 * filter of its route, each token linked to its `Contract` (loaded per distinct contract,
 * deduplicated); and the chains the address is active on. Balances change with every transfer:
 * their pages are head data, and a cursor resumes in the live list after its token (see
 * `mutableItems` in connection.ts).
 */

/**
 * At most this many contracts in one `contractAddresses` filter (the upstream takes them in one
 * query value).
 */
const MAX_CONTRACT_FILTER = 100;

/** `contractAddress`: one EVM address, lower-cased; checked before any call. */
const oneContract = (v: string | null | undefined, argument = 'contractAddress') =>
  v == null ? undefined : parseEvmAddress(v, argument);

interface BalanceList<T> {
  pages: PagedList<T>;
  id: (item: T) => string;
  amount: (item: T) => string;
}

function balanceConnection<T>(args: ConnectionArgs, ctx: GatewayContext, o: BalanceList<T>) {
  return resolveTokenConnection<T>(args, ctx.connections, {
    pages: o.pages,
    pageSize: ctx.loaders.tokens.pageSizes.balances,
    // A balance changes: the head snapshot keeps a cursor's position, the live list supplies what
    // follows.
    itemKey: (x) => `${o.id(x)}=${o.amount(x)}`,
    idOf: o.id,
    mutableItems: true,
  });
}

/** The erc20Balances filters, parsed (each failure a BAD_USER_INPUT naming its argument). */
function erc20Filter(args: {
  block?: unknown;
  blockNumber?: unknown;
  filterSpamTokens?: unknown;
  contractAddresses?: unknown;
  currency?: unknown;
}) {
  const blockNumber = atBlock(args);
  const list = Array.isArray(args.contractAddresses)
    ? (args.contractAddresses as string[])
    : undefined;
  if (list && (list.length === 0 || list.length > MAX_CONTRACT_FILTER)) {
    throw badInput(
      'contractAddresses',
      `contractAddresses must list 1 to ${MAX_CONTRACT_FILTER} addresses`,
    );
  }
  const contractAddresses = list
    ? [...new Set(list.map((x) => parseEvmAddress(String(x), 'contractAddresses')))].sort()
    : undefined;
  const filterSpamTokens =
    typeof args.filterSpamTokens === 'boolean' ? args.filterSpamTokens : true;
  return {
    blockNumber,
    filterSpamTokens,
    contractAddresses,
    currency: (given(args.currency) ?? undefined) as CurrencyCode | undefined,
  };
}

/** `block` (or its deprecated name `blockNumber`), parsed: the block a balance list is read at. */
function atBlock(args: { block?: unknown; blockNumber?: unknown }) {
  const block = renamedArg(args, 'block', 'blockNumber');
  const value = given(block.value);
  return value === undefined ? undefined : String(parseBlockNumber(value, block.argument));
}

/** The NFT balance filters (`block` only on erc1155Balances), parsed. */
function nftFilter(args: { block?: unknown; blockNumber?: unknown; contractAddress?: unknown }) {
  return {
    blockNumber: atBlock(args),
    contractAddress: oneContract(given(args.contractAddress)),
  };
}

// Checked before execution too: an address reached through a list must not cost that list's call
// first.
registerArgumentCheck(['Address'], 'erc20Balances', erc20Filter);
for (const field of ['erc721Balances', 'erc1155Balances', 'collectibleBalances'])
  registerArgumentCheck(['Address'], field, nftFilter);

const nftId = (b: { address: string; tokenId: string }) =>
  `${b.address.toLowerCase()}:${b.tokenId}`;
/** One of the address's NFT lists, filtered by contract (and, where the list takes it, block). */
/** The resolver of one of the address's NFT lists, filtered by contract (and block, where taken). */
const nftBalances =
  <B extends { address: string; tokenId: string }>(
    pagesOf: (
      tokens: GatewayContext['loaders']['tokens'],
    ) => (key: {
      chainId: string;
      address: string;
      blockNumber?: string;
      contractAddress?: string;
    }) => PagedList<B>,
    amount: (b: B) => string,
  ) =>
  (
    a: AddressShape,
    args: ConnectionArgs & { block?: unknown; blockNumber?: unknown; contractAddress?: unknown },
    ctx: GatewayContext,
  ) => {
    const key = { chainId: a.chainId, address: a.address, ...nftFilter(args) };
    const pages = pagesOf(ctx.loaders.tokens)(key);
    return balanceConnection<B>(args, ctx, { pages, id: nftId, amount });
  };

const contractArg = { description: 'Only tokens of this contract (0x + 40 hex).' };
const contractFilterArgs = builder.args((t) => ({
  contractAddress: t.string({ required: false, ...contractArg }),
}));
const blockArg = { description: 'Balances at this block (default: the latest).' };

builder.objectFields(AddressRef, (t) => ({
  erc20Balances: t.connection(
    {
      type: Erc20BalanceRef,
      nullable: true,
      description:
        'ERC-20 tokens this address holds on its chain (`listErc20Balances`), ordered as the ' +
        'upstream orders them. Forward paging only.',
      args: {
        block: t.arg({ type: 'BigDecimal', required: false, description: blockArg.description }),
        blockNumber: t.arg({
          type: 'BigDecimal',
          required: false,
          description: blockArg.description,
          deprecationReason: useInstead('block'),
        }),
        filterSpamTokens: t.arg.boolean({
          required: false,
          defaultValue: true,
          description: 'Leave out tokens the indexer flags as spam. @default true',
        }),
        contractAddresses: t.arg.stringList({
          required: false,
          description: `Only these token contracts (at most ${MAX_CONTRACT_FILTER}).`,
        }),
        currency: t.arg({
          type: CurrencyCodeEnum,
          required: false,
          description: 'Currency of prices and values (default: the upstream’s, USD).',
        }),
      },
      resolve: (a, args, ctx) => {
        // The enum's value (e.g. "eur") arrives here; the pre-execution check sees its name, which
        // it does not read.
        const f = erc20Filter({ ...args, currency: undefined });
        f.currency = (args.currency ?? undefined) as CurrencyCode | undefined;
        return balanceConnection<Erc20TokenBalance>(args, ctx, {
          pages: ctx.loaders.tokens.erc20BalancesPage.list({
            chainId: a.chainId,
            address: a.address,
            ...f,
          }),
          id: (b) => b.address.toLowerCase(),
          amount: (b) => b.balance,
        });
      },
    },
    ...pageTypes('Erc20Balance', 'ERC-20 balances', 'An ERC-20 balance'),
  ),
  erc721Balances: t.connection(
    {
      type: Erc721BalanceRef,
      nullable: true,
      description:
        'ERC-721 tokens (NFTs) this address owns on its chain (`listErc721Balances`). Forward ' +
        'paging only.',
      args: contractFilterArgs,
      resolve: nftBalances<Erc721TokenBalance>(
        (tokens) => tokens.erc721BalancesPage.list,
        () => '1',
      ),
    },
    ...pageTypes('Erc721Balance', 'ERC-721 balances', 'An owned ERC-721 token'),
  ),
  erc1155Balances: t.connection(
    {
      type: Erc1155BalanceRef,
      nullable: true,
      description:
        'ERC-1155 token ids this address holds on its chain (`listErc1155Balances`). Forward ' +
        'paging only.',
      args: {
        block: t.arg({ type: 'BigDecimal', required: false, description: blockArg.description }),
        blockNumber: t.arg({
          type: 'BigDecimal',
          required: false,
          description: blockArg.description,
          deprecationReason: useInstead('block'),
        }),
        contractAddress: t.arg.string({ required: false, ...contractArg }),
      },
      resolve: nftBalances<Erc1155TokenBalance>(
        (tokens) => tokens.erc1155BalancesPage.list,
        (b) => b.balance,
      ),
    },
    ...pageTypes('Erc1155Balance', 'ERC-1155 balances', 'An ERC-1155 balance'),
  ),
  collectibleBalances: t.connection(
    {
      type: CollectibleBalanceRef,
      nullable: true,
      description:
        'ERC-721 and ERC-1155 tokens this address holds on its chain ' +
        '(`listCollectibleBalances`). Forward paging only.',
      args: contractFilterArgs,
      resolve: nftBalances<CollectibleBalance>(
        (tokens) => tokens.collectibleBalancesPage.list,
        (b) => ('balance' in b ? b.balance : '1'),
      ),
    },
    ...pageTypes('CollectibleBalance', 'collectible balances', 'A collectible balance'),
  ),
  chains: t.field({
    type: AddressChainsRef,
    nullable: true,
    description:
      'Every chain this address is active on, across networks (`listAddressChains`), not only ' +
      'this address’s own chain.',
    resolve: async (a, _args, ctx) => {
      const chains = await ctx.loaders.tokens.addressChains.load(a.address);
      for (const c of chains.indexedChains) ctx.loaders.evm.chain.prime(c.chainId, c);
      return chains;
    },
  }),
}));
