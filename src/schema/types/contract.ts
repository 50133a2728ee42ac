import type { GatewayContext } from '../../context.js';
import { gqlError } from '../../errors.js';
import { isUpstreamStatus } from '../../upstream/errors.js';
import {
  type ContractMetadata,
  type DeploymentDetails,
  type ImageAsset,
  RESOURCE_LINK_TYPES,
} from '../../upstream/schemas/contracts.js';
import { builder } from '../builder.js';
import { conventionalValues, describedValues } from '../enum-docs.js';
import { exposed, ref } from '../expose.js';
import { parseEvmAddress } from '../inputs.js';
import { loadEachOnChain } from '../node-load.js';
import { AddressRef } from './address.js';
import { ErcTypeEnum } from './token.js';
import { TransactionRef } from './transaction.js';

/**
 * Contract metadata (name, links, assets, deployment) from the Data API, told apart by token standard.
 * Each kind is a Relay node: `<Kind>:<chainId>:<lower-case address>`, e.g. `Erc20Contract:43114:0xb97e…`.
 * Metadata is slow-moving: cached for minutes, not forever.
 */
type Kind = ContractMetadata['ercType'];
type ContractOf<K extends Kind> = Extract<ContractMetadata, { ercType: K }>;

const TYPENAME: Record<Kind, string> = {
  'ERC-20': 'Erc20Contract',
  'ERC-721': 'Erc721Contract',
  'ERC-1155': 'Erc1155Contract',
  UNKNOWN: 'UnknownContract',
};

const ResourceLinkTypeEnum = builder.enumType('ResourceLinkType', {
  description: 'What a project link points at.',
  values: conventionalValues(
    describedValues(RESOURCE_LINK_TYPES, {
      Blog: 'The project blog.',
      CoinGecko: 'The token page on CoinGecko.',
      CoinMarketCap: 'The token page on CoinMarketCap.',
      Discord: 'A Discord server.',
      Documentation: 'Developer or user documentation.',
      Facebook: 'A Facebook page.',
      Github: 'A GitHub organisation or repository.',
      Instagram: 'An Instagram account.',
      LinkedIn: 'A LinkedIn page.',
      Medium: 'A Medium publication.',
      Reddit: 'A subreddit.',
      Support: 'A support page.',
      Telegram: 'A Telegram group or channel.',
      TikTok: 'A TikTok account.',
      Twitter: 'An X (Twitter) account.',
      Website: 'The official website.',
      Whitepaper: 'The whitepaper.',
      Youtube: 'A YouTube channel.',
    }),
  ),
});

const ResourceLinkRef = builder
  .objectRef<{ type: (typeof RESOURCE_LINK_TYPES)[number]; url: string }>('ResourceLink')
  .implement({
    description: 'A link about a contract’s project (site, socials, docs).',
    fields: (t) => ({
      type: t.expose('type', {
        type: ResourceLinkTypeEnum,
        description: 'What the link points at.',
      }),
      url: t.exposeString('url', { description: 'Address of the linked page.' }),
    }),
  });

const ImageAssetRef = builder.objectRef<ImageAsset>('ImageAsset').implement({
  description: "An image of a contract's project (logo or banner) stored by the Data API.",
  fields: (t) =>
    exposed(t, {
      assetId: ['String?', "The Data API's id of the stored image; null when none."],
      imageUri: ['String?', 'URL of the image; null when none.'],
    }),
});

const DeploymentRef = builder
  .objectRef<DeploymentDetails & { chainId: string }>('ContractDeployment')
  .implement({
    description: 'How a contract was deployed.',
    fields: (t) => ({
      txHash: t.exposeString('txHash', {
        description: 'Hash (0x-hex) of the deployment transaction.',
      }),
      transaction: t.field({
        type: TransactionRef,
        nullable: true,
        description: 'The deployment transaction.',
        resolve: (d) => `${d.chainId}:${d.txHash.toLowerCase()}`,
      }),
      ...exposed(t, {
        deployerAddress: [
          'EvmAddress',
          'Address (lower-case 0x-hex) of the account that sent the deployment.',
        ],
      }),
      deployer: t.field({
        type: AddressRef,
        description: 'The account that sent the deployment.',
        resolve: (d) => ({ chainId: d.chainId, address: d.deployerAddress.toLowerCase() }),
      }),
      ...exposed(t, {
        deployerContractAddress: [
          'EvmAddress?',
          'Address (lower-case 0x-hex) of the factory contract that deployed it, when a contract did; null for a direct deployment.',
        ],
      }),
      deployerContract: t.field({
        type: AddressRef,
        nullable: true,
        description: 'The factory contract that created it, when it was not deployed directly.',
        resolve: (d) =>
          d.deployerContractAddress
            ? { chainId: d.chainId, address: d.deployerContractAddress.toLowerCase() }
            : null,
      }),
    }),
  });

export const ContractRef = builder.interfaceRef<ContractMetadata>('Contract').implement({
  description: 'Metadata of a contract, by token standard.',
  resolveType: (c) => TYPENAME[c.ercType],
  fields: (t) => ({
    chainId: t.exposeString('chainId', {
      description: "EVM chain id of the contract's chain (decimal string).",
    }),
    address: t.string({
      description: 'Contract address, lower-case 0x-hex.',
      resolve: (c) => c.address.toLowerCase(),
    }),
    account: t.field({
      type: AddressRef,
      description: 'The contract as an Address (its activity and balance).',
      resolve: (c) => ({ chainId: c.chainId, address: c.address.toLowerCase() }),
    }),
    ...exposed(t, {
      ercType: ref(ErcTypeEnum, 'Token standard of the contract.'),
      name: ['String?', 'Name of the contract or project; null when the indexer has none.'],
      description: ['String?', 'Project description; null when none.'],
      officialSite: ['String?', "URL of the project's official site; null when none."],
      email: ['String?', 'Contact email of the project; null when none.'],
      color: ['String?', 'The project\'s brand colour (e.g. "#E84142"); null when none.'],
    }),
    tags: t.stringList({
      resolve: (c) => c.tags ?? [],
      description: 'Tags the indexer gives the contract (e.g. "DeFi"); empty when none.',
    }),
    logo: t.field({
      type: ImageAssetRef,
      nullable: true,
      description: "The project's logo; null when none.",
      resolve: (c) => c.logoAsset ?? null,
    }),
    banner: t.field({
      type: ImageAssetRef,
      nullable: true,
      description: "The project's banner image; null when none.",
      resolve: (c) => c.bannerAsset ?? null,
    }),
    resourceLinks: t.field({
      type: [ResourceLinkRef],
      description: 'Links about the project (site, socials, docs); empty when none.',
      resolve: (c) => c.resourceLinks ?? [],
    }),
    deployment: t.field({
      type: DeploymentRef,
      nullable: true,
      description: 'How the contract was deployed; null when the indexer does not know.',
      resolve: (c) => (c.deploymentDetails ? { ...c.deploymentDetails, chainId: c.chainId } : null),
    }),
  }),
});

/**
 * One contract's metadata by its natural key, as the given kind: behind `node(id)` and `_entities`.
 * A key whose contract is of another kind is NOT_FOUND.
 */
export async function loadContract<K extends Kind>(
  ctx: GatewayContext,
  kind: K,
  key: { chainId: string; address: string },
): Promise<ContractOf<K>> {
  const c = await ctx.loaders.evm.contract.load(key);
  if (c.ercType !== kind)
    throw gqlError('NOT_FOUND', `The contract at ${key.address} is ${c.ercType}, not ${kind}`);
  return c as ContractOf<K>;
}

const contractNode = <K extends Kind>(kind: K, description: string) =>
  builder
    .loadableNodeRef<ContractOf<K>, string>(TYPENAME[kind], {
      id: { resolve: (c) => `${c.chainId}:${c.address.toLowerCase()}` },
      load: loadEachOnChain(TYPENAME[kind], parseEvmAddress, (ctx, chainId, address) =>
        loadContract(ctx, kind, { chainId, address }),
      ),
    })
    .implement({ description, interfaces: [ContractRef], fields: () => ({}) });

export const Erc20ContractRef = contractNode('ERC-20', 'An ERC-20 token contract.');
export const Erc721ContractRef = contractNode('ERC-721', 'An ERC-721 (NFT collection) contract.');
export const Erc1155ContractRef = contractNode('ERC-1155', 'An ERC-1155 (multi-token) contract.');
export const UnknownContractRef = contractNode(
  'UNKNOWN',
  'A contract that is not a token the indexer recognizes.',
);

builder.objectFields(Erc20ContractRef, (t) => ({
  ...exposed(t, {
    symbol: ['String?', 'Token symbol (e.g. "USDC"); null when the contract sets none.'],
    decimals: [
      'Int',
      'Decimals of the token: divide a raw amount by 10^decimals for whole tokens.',
    ],
  }),
  coingeckoCoinId: t.string({
    nullable: true,
    description: 'CoinGecko coin id used to price the token; null when it has none.',
    resolve: (c) => c.pricingProviders?.coingeckoCoinId ?? null,
  }),
}));
builder.objectFields(Erc721ContractRef, (t) => ({
  symbol: t.exposeString('symbol', {
    nullable: true,
    description: 'Collection symbol; null when the contract sets none.',
  }),
}));
builder.objectFields(Erc1155ContractRef, (t) => ({
  symbol: t.exposeString('symbol', {
    nullable: true,
    description: 'Contract symbol; null when the contract sets none.',
  }),
  coingeckoCoinId: t.string({
    nullable: true,
    description: 'CoinGecko coin id used to price the token; null when it has none.',
    resolve: (c) => c.pricingProviders?.coingeckoCoinId ?? null,
  }),
}));

builder.objectFields(AddressRef, (t) => ({
  contract: t.field({
    type: ContractRef,
    nullable: true,
    description:
      'The contract metadata when this address is a contract the indexer knows; null otherwise.',
    resolve: async (a, _args, ctx) => {
      try {
        return await ctx.loaders.evm.contract.load({ chainId: a.chainId, address: a.address });
      } catch (e) {
        // The upstream answers 404 both for an address that is no contract it knows ("no contract": null) and for
        // an unknown chain (an error): the chain loader (slow-moving, cached) tells them apart.
        if (!isUpstreamStatus(e, 404)) throw e;
        await ctx.loaders.evm.chain.load(a.chainId);
        return null;
      }
    },
  }),
}));
