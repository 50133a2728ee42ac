import {
  type Erc20Token,
  type Erc721Metadata,
  type Erc721Token,
  type Erc1155Metadata,
  type Erc1155Token,
  NFT_METADATA_STATUSES,
} from '../../upstream/schemas/evm-transfers.js';
import { builder } from '../builder.js';
import { describedValues } from '../enum-docs.js';
import { exposed, ref, refOrNull, TOKEN_METADATA } from '../expose.js';
import { TOKEN_ID } from '../rows.js';
import { AddressRef } from './address.js';
import { MoneyRef } from './money.js';

/** Tokens as transfers carry them. Each keeps the chain it was seen on, so its contract is an Address to follow. */
type OnChain<T> = T & { chainId: string };

export const ErcTypeEnum = builder.enumType('ErcType', {
  description: 'The token standard of a contract.',
  values: {
    ERC_20: { value: 'ERC-20', description: 'A fungible token (ERC-20).' },
    ERC_721: {
      value: 'ERC-721',
      description: 'An NFT collection (ERC-721): one owner per token id.',
    },
    ERC_1155: {
      value: 'ERC-1155',
      description: 'A multi-token contract (ERC-1155): balances per token id.',
    },
    UNKNOWN: { value: 'UNKNOWN', description: 'Not a token contract the indexer recognizes.' },
  } as const,
});

export const NftMetadataStatusEnum = builder.enumType('NftMetadataStatus', {
  description: 'How far the indexer got fetching an NFT’s metadata from its token URI.',
  values: describedValues(NFT_METADATA_STATUSES, {
    UNKNOWN: 'The indexer has no status for it.',
    MISSING_TOKEN: 'The token does not exist (e.g. burned or never minted).',
    INVALID_TOKEN_URI: 'The token URI is not a valid URI.',
    INVALID_TOKEN_URI_SCHEME: 'The token URI uses a scheme the indexer does not fetch.',
    UNREACHABLE_TOKEN_URI: 'The token URI could not be reached.',
    THROTTLED_TOKEN_URI: 'The host of the token URI throttled the indexer; it will retry.',
    METADATA_CONTENT_TOO_LARGE: 'The metadata document is too large to index.',
    INVALID_METADATA: 'The metadata does not follow the standard metadata schema.',
    INVALID_METADATA_JSON: 'The metadata is not valid JSON.',
    INDEXED: 'The metadata was fetched and indexed.',
    UNINDEXED: 'The metadata has not been fetched yet.',
  }),
});

const contractField = (description: string) =>
  ({
    type: AddressRef,
    description,
    resolve: (tok: { chainId: string; address: string }) => ({
      chainId: tok.chainId,
      address: tok.address.toLowerCase(),
    }),
  }) as const;

export const Erc20TokenRef = builder.objectRef<OnChain<Erc20Token>>('Erc20Token').implement({
  description: 'An ERC-20 token as a transfer names it, with its price when the indexer knows one.',
  fields: (t) => ({
    ...exposed(t, { address: ['EvmAddress', 'Token contract address, lower-case 0x-hex.'] }),
    contract: t.field(
      contractField(
        'The token contract as an Address (its activity, balance and contract metadata).',
      ),
    ),
    ...exposed(t, {
      ...TOKEN_METADATA,
      ercType: ref(ErcTypeEnum, 'Token standard (ERC-20 here).'),
      price: refOrNull(MoneyRef, 'Token price now; null when the indexer has none.'),
    }),
  }),
});

export const NftMetadataRef = builder
  .interfaceRef<Erc721Metadata | Erc1155Metadata>('NftMetadata')
  .implement({
    description: 'NFT metadata as the indexer read it from the token URI.',
    fields: (t) => ({
      ...exposed(t, {
        indexStatus: ref(
          NftMetadataStatusEnum,
          "Whether the indexer could fetch and parse the token's metadata.",
        ),
        metadataLastUpdatedTimestamp: [
          'Timestamp?',
          'When the indexer last refreshed the metadata, Unix seconds; null when never.',
        ],
        name: ['String?', 'Name from the metadata; null when absent.'],
        symbol: ['String?', 'Symbol from the metadata; null when absent.'],
        imageUri: ['String?', 'Image URL from the metadata; null when absent.'],
        description: ['String?', 'Description from the metadata; null when absent.'],
        animationUri: ['String?', 'Animation URL from the metadata; null when absent.'],
        externalUrl: ['String?', 'External URL from the metadata; null when absent.'],
        background: ['String?', 'Background colour from the metadata; null when absent.'],
      }),
    }),
  });

export const Erc721MetadataRef = builder.objectRef<Erc721Metadata>('Erc721Metadata').implement({
  interfaces: [NftMetadataRef],
  description: 'Metadata of an ERC-721 token, fetched from its token URI.',
  fields: (t) => ({
    attributes: t.exposeString('attributes', {
      nullable: true,
      description: 'The attributes as the metadata JSON gives them (a JSON string).',
    }),
  }),
});

export const Erc1155MetadataRef = builder.objectRef<Erc1155Metadata>('Erc1155Metadata').implement({
  interfaces: [NftMetadataRef],
  description: 'Metadata of an ERC-1155 token, fetched from its token URI.',
  fields: (t) =>
    exposed(t, {
      decimals: [
        'Int?',
        'Decimals from the metadata (ERC-1155 amounts may be fractional); null when absent.',
      ],
      properties: ['String?', 'The properties as the metadata JSON gives them (a JSON string).'],
    }),
});

export const Erc721TokenRef = builder.objectRef<OnChain<Erc721Token>>('Erc721Token').implement({
  description: 'One ERC-721 token (an NFT) of a collection.',
  fields: (t) => ({
    ...exposed(t, { address: ['EvmAddress', 'The collection contract, lower-case 0x-hex.'] }),
    contract: t.field(contractField('The collection contract as an Address.')),
    ...exposed(t, {
      name: ['String', 'Collection name.'],
      symbol: ['String', 'Collection symbol.'],
      ercType: ref(ErcTypeEnum, 'Token standard (ERC-721 here).'),
      ...TOKEN_ID,
      tokenUri: ['String', 'Token URI the metadata is read from (often ipfs:// or https://).'],
      metadata: ref(Erc721MetadataRef, 'Metadata read from the token URI.'),
    }),
    ...exposed(t, {
      ownerAddress: [
        'EvmAddress?',
        'Address (lower-case 0x-hex) of the current owner; null when the indexer does not know.',
      ],
    }),
    owner: t.field({
      type: AddressRef,
      nullable: true,
      description: 'The current owner, as the indexer reports it.',
      resolve: (tok) =>
        tok.ownerAddress ? { chainId: tok.chainId, address: tok.ownerAddress.toLowerCase() } : null,
    }),
  }),
});

export const Erc1155TokenRef = builder.objectRef<OnChain<Erc1155Token>>('Erc1155Token').implement({
  description: 'One ERC-1155 token id of a multi-token contract.',
  fields: (t) => ({
    ...exposed(t, {
      address: ['EvmAddress', 'Multi-token contract address, lower-case 0x-hex.'],
    }),
    contract: t.field(contractField('The multi-token contract as an Address.')),
    ...exposed(t, {
      ercType: ref(ErcTypeEnum, 'Token standard (ERC-1155 here).'),
      ...TOKEN_ID,
      tokenUri: ['String', 'Token URI the metadata is read from (may contain `{id}`).'],
      metadata: ref(Erc1155MetadataRef, 'Metadata read from the token URI.'),
    }),
  }),
});
