import {
  NFT_METADATA_STATUSES,
  type Erc1155Metadata,
  type Erc1155Token,
  type Erc20Token,
  type Erc721Metadata,
  type Erc721Token,
} from '../../upstream/schemas/evm-transfers.js';
import { builder } from '../builder.js';
import { AddressRef } from './address.js';
import { MoneyRef } from './money.js';

/** Tokens as transfers carry them. Each keeps the chain it was seen on, so its contract is an Address to follow. */
type OnChain<T> = T & { chainId: string };

export const ErcTypeEnum = builder.enumType('ErcType', {
  description: 'The token standard of a contract.',
  values: {
    ERC_20: { value: 'ERC-20' },
    ERC_721: { value: 'ERC-721' },
    ERC_1155: { value: 'ERC-1155' },
    UNKNOWN: { value: 'UNKNOWN', description: 'Not a token contract the indexer recognizes.' },
  } as const,
});

export const NftMetadataStatusEnum = builder.enumType('NftMetadataStatus', {
  description: 'How far the indexer got fetching an NFT’s metadata from its token URI.',
  values: NFT_METADATA_STATUSES,
});

const contractField = (description: string) =>
  ({
    type: AddressRef,
    description,
    resolve: (tok: { chainId: string; address: string }) => ({ chainId: tok.chainId, address: tok.address.toLowerCase() }),
  }) as const;

export const Erc20TokenRef = builder.objectRef<OnChain<Erc20Token>>('Erc20Token').implement({
  description: 'An ERC-20 token as a transfer names it, with its price when the indexer knows one.',
  fields: (t) => ({
    address: t.exposeString('address'),
    contract: t.field(contractField('The token contract as an Address (its activity, balance and contract metadata).')),
    name: t.exposeString('name'),
    symbol: t.exposeString('symbol'),
    decimals: t.exposeInt('decimals'),
    logoUri: t.exposeString('logoUri', { nullable: true }),
    ercType: t.expose('ercType', { type: ErcTypeEnum }),
    price: t.field({ type: MoneyRef, nullable: true, resolve: (tok) => tok.price ?? null }),
  }),
});

export const NftMetadataRef = builder.interfaceRef<Erc721Metadata | Erc1155Metadata>('NftMetadata').implement({
  description: 'NFT metadata as the indexer read it from the token URI.',
  fields: (t) => ({
    indexStatus: t.expose('indexStatus', { type: NftMetadataStatusEnum }),
    metadataLastUpdatedTimestamp: t.field({ type: 'Timestamp', nullable: true, resolve: (m) => m.metadataLastUpdatedTimestamp ?? null }),
    name: t.exposeString('name', { nullable: true }),
    symbol: t.exposeString('symbol', { nullable: true }),
    imageUri: t.exposeString('imageUri', { nullable: true }),
    description: t.exposeString('description', { nullable: true }),
    animationUri: t.exposeString('animationUri', { nullable: true }),
    externalUrl: t.exposeString('externalUrl', { nullable: true }),
    background: t.exposeString('background', { nullable: true }),
  }),
});

export const Erc721MetadataRef = builder.objectRef<Erc721Metadata>('Erc721Metadata').implement({
  interfaces: [NftMetadataRef],
  fields: (t) => ({
    attributes: t.exposeString('attributes', { nullable: true, description: 'The attributes as the metadata JSON gives them (a JSON string).' }),
  }),
});

export const Erc1155MetadataRef = builder.objectRef<Erc1155Metadata>('Erc1155Metadata').implement({
  interfaces: [NftMetadataRef],
  fields: (t) => ({
    decimals: t.exposeInt('decimals', { nullable: true }),
    properties: t.exposeString('properties', { nullable: true, description: 'The properties as the metadata JSON gives them (a JSON string).' }),
  }),
});

export const Erc721TokenRef = builder.objectRef<OnChain<Erc721Token>>('Erc721Token').implement({
  description: 'One ERC-721 token (an NFT) of a collection.',
  fields: (t) => ({
    address: t.exposeString('address', { description: 'The collection contract.' }),
    contract: t.field(contractField('The collection contract as an Address.')),
    name: t.exposeString('name'),
    symbol: t.exposeString('symbol'),
    ercType: t.expose('ercType', { type: ErcTypeEnum }),
    tokenId: t.exposeString('tokenId', { description: 'The token id (a decimal string: it may exceed 64 bits).' }),
    tokenUri: t.exposeString('tokenUri'),
    metadata: t.field({ type: Erc721MetadataRef, resolve: (tok) => tok.metadata }),
    ownerAddress: t.exposeString('ownerAddress', { nullable: true }),
    owner: t.field({
      type: AddressRef,
      nullable: true,
      description: 'The current owner, as the indexer reports it.',
      resolve: (tok) => (tok.ownerAddress ? { chainId: tok.chainId, address: tok.ownerAddress.toLowerCase() } : null),
    }),
  }),
});

export const Erc1155TokenRef = builder.objectRef<OnChain<Erc1155Token>>('Erc1155Token').implement({
  description: 'One ERC-1155 token id of a multi-token contract.',
  fields: (t) => ({
    address: t.exposeString('address'),
    contract: t.field(contractField('The multi-token contract as an Address.')),
    ercType: t.expose('ercType', { type: ErcTypeEnum }),
    tokenId: t.exposeString('tokenId'),
    tokenUri: t.exposeString('tokenUri'),
    metadata: t.field({ type: Erc1155MetadataRef, resolve: (tok) => tok.metadata }),
  }),
});
