import { badInput } from '../../errors.js';
import type { NftToken } from '../../upstream/schemas/portfolio.js';
import { argTable } from '../arg-table.js';
import { given, registerArgumentCheck } from '../argument-checks.js';
import { builder } from '../builder.js';
import { resolveTokenConnection } from '../connection.js';
import { Erc721ContractRef, Erc1155ContractRef } from './contract.js';
import { Erc721TokenRef, Erc1155TokenRef } from './token.js';

/** An NFT collection's tokens (`listTokens`) and one token (`getTokenDetails`). */
export const NftTokenRef = builder.unionType('NftToken', {
  description: 'One token of an NFT collection: an ERC-721 token or an ERC-1155 token id.',
  types: [Erc721TokenRef, Erc1155TokenRef],
  resolveType: (tok) => (tok.ercType === 'ERC-721' ? Erc721TokenRef : Erc1155TokenRef),
});

const TOKEN_ID = /^\d{1,78}$/;
const tokenIdOf = (args: { tokenId?: unknown }) => {
  const id = given(args.tokenId);
  if (id === undefined || !TOKEN_ID.test(id))
    throw badInput('tokenId', 'tokenId must be a decimal whole number');
  return id;
};
// Checked before execution too: reaching a contract costs a call, a bad argument below it must not.
registerArgumentCheck(['Erc721Contract', 'Erc1155Contract'], 'token', tokenIdOf);

/** The collection's tokens and one token, on both NFT contract kinds. */
for (const ref of [Erc721ContractRef, Erc1155ContractRef] as const) {
  builder.objectFields(ref as typeof Erc721ContractRef, (t) => ({
    tokens: t.connection(
      {
        type: NftTokenRef,
        nullable: true,
        description:
          'The tokens of this NFT collection (`listTokens`), in the upstream’s order. Forward ' +
          'paging only.',
        resolve: (c, args, ctx) =>
          resolveTokenConnection<NftToken & { chainId: string }>(args, ctx.connections, {
            pages: ctx.loaders.tokens.nftTokensPage
              .list({
                chainId: c.chainId,
                address: c.address.toLowerCase(),
              })
              .mapItems((tok) => ({ ...tok, chainId: c.chainId })),
            pageSize: ctx.loaders.tokens.pageSizes.nftTokens,
            itemKey: (tok) => tok.tokenId,
          }),
      },
      {
        name:
          ref === Erc721ContractRef
            ? 'Erc721CollectionTokenConnection'
            : 'Erc1155CollectionTokenConnection',
        description: 'A page of a collection’s tokens.',
      },
      {
        name:
          ref === Erc721ContractRef ? 'Erc721CollectionTokenEdge' : 'Erc1155CollectionTokenEdge',
        description: 'A token of the collection and its cursor.',
      },
    ),
    token: t.field({
      type: NftTokenRef,
      nullable: true,
      description: 'One token of this collection, with its metadata (`getTokenDetails`).',
      args: argTable(t.arg, {
        tokenId: ['BigDecimal!', 'The token id (a decimal whole number).'],
      }),
      resolve: async (c, args, ctx) => {
        const tokenId = tokenIdOf(args);
        const tok = await ctx.loaders.tokens.nftToken.load({
          chainId: c.chainId,
          address: c.address.toLowerCase(),
          tokenId,
        });
        return { ...tok, chainId: c.chainId };
      },
    }),
  }));
}
