import type { GatewayContext } from '../../context.js';
import { RESOURCE_LINK_TYPES, type ContractMetadata, type DeploymentDetails, type ImageAsset } from '../../upstream/schemas/contracts.js';
import { UpstreamError } from '../../upstream/errors.js';
import { builder } from '../builder.js';
import { badInput, gqlError } from '../errors.js';
import { parseChainId, parseEvmAddress, splitKey } from '../inputs.js';
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

const TYPENAME: Record<Kind, string> = { 'ERC-20': 'Erc20Contract', 'ERC-721': 'Erc721Contract', 'ERC-1155': 'Erc1155Contract', UNKNOWN: 'UnknownContract' };

const ResourceLinkTypeEnum = builder.enumType('ResourceLinkType', { values: RESOURCE_LINK_TYPES });

const ResourceLinkRef = builder.objectRef<{ type: (typeof RESOURCE_LINK_TYPES)[number]; url: string }>('ResourceLink').implement({
  description: 'A link about a contract’s project (site, socials, docs).',
  fields: (t) => ({ type: t.expose('type', { type: ResourceLinkTypeEnum }), url: t.exposeString('url') }),
});

const ImageAssetRef = builder.objectRef<ImageAsset>('ImageAsset').implement({
  fields: (t) => ({ assetId: t.exposeString('assetId', { nullable: true }), imageUri: t.exposeString('imageUri', { nullable: true }) }),
});

const DeploymentRef = builder.objectRef<DeploymentDetails & { chainId: string }>('ContractDeployment').implement({
  description: 'How a contract was deployed.',
  fields: (t) => ({
    txHash: t.exposeString('txHash'),
    transaction: t.field({ type: TransactionRef, nullable: true, resolve: (d) => `${d.chainId}:${d.txHash.toLowerCase()}` }),
    deployerAddress: t.exposeString('deployerAddress'),
    deployer: t.field({ type: AddressRef, description: 'The account that sent the deployment.', resolve: (d) => ({ chainId: d.chainId, address: d.deployerAddress.toLowerCase() }) }),
    deployerContractAddress: t.exposeString('deployerContractAddress', { nullable: true }),
    deployerContract: t.field({
      type: AddressRef,
      nullable: true,
      description: 'The factory contract that created it, when it was not deployed directly.',
      resolve: (d) => (d.deployerContractAddress ? { chainId: d.chainId, address: d.deployerContractAddress.toLowerCase() } : null),
    }),
  }),
});

export const ContractRef = builder.interfaceRef<ContractMetadata>('Contract').implement({
  description: 'Metadata of a contract, by token standard.',
  resolveType: (c) => TYPENAME[c.ercType],
  fields: (t) => ({
    chainId: t.exposeString('chainId'),
    address: t.string({ description: 'Lower-case hex.', resolve: (c) => c.address.toLowerCase() }),
    account: t.field({ type: AddressRef, description: 'The contract as an Address (its activity and balance).', resolve: (c) => ({ chainId: c.chainId, address: c.address.toLowerCase() }) }),
    ercType: t.expose('ercType', { type: ErcTypeEnum }),
    name: t.exposeString('name', { nullable: true }),
    description: t.exposeString('description', { nullable: true }),
    officialSite: t.exposeString('officialSite', { nullable: true }),
    email: t.exposeString('email', { nullable: true }),
    color: t.exposeString('color', { nullable: true }),
    tags: t.stringList({ resolve: (c) => c.tags ?? [] }),
    logo: t.field({ type: ImageAssetRef, nullable: true, resolve: (c) => c.logoAsset ?? null }),
    banner: t.field({ type: ImageAssetRef, nullable: true, resolve: (c) => c.bannerAsset ?? null }),
    resourceLinks: t.field({ type: [ResourceLinkRef], resolve: (c) => c.resourceLinks ?? [] }),
    deployment: t.field({ type: DeploymentRef, nullable: true, resolve: (c) => (c.deploymentDetails ? { ...c.deploymentDetails, chainId: c.chainId } : null) }),
  }),
});

/** Loads one contract's metadata by its natural key; a key whose contract is of another kind is NOT_FOUND. */
const loadContract =
  <K extends Kind>(kind: K) =>
  (ids: string[], ctx: GatewayContext) =>
    Promise.all(
      ids.map(async (id): Promise<ContractOf<K> | Error> => {
        const parts = splitKey(id);
        if (!parts) return badInput('id', `Malformed ${TYPENAME[kind]} id`);
        try {
          const c = await ctx.loaders.evm.contract.load({ chainId: parseChainId(parts[0], 'id'), address: parseEvmAddress(parts[1], 'id') });
          if (c.ercType !== kind) return gqlError('NOT_FOUND', `The contract at ${parts[1]} is ${c.ercType}, not ${kind}`);
          return c as ContractOf<K>;
        } catch (e) {
          return e as Error;
        }
      }),
    );

const contractNode = <K extends Kind>(kind: K, description: string) =>
  builder.loadableNodeRef<ContractOf<K>, string>(TYPENAME[kind], {
    id: { resolve: (c) => `${c.chainId}:${c.address.toLowerCase()}` },
    load: loadContract(kind),
  }).implement({ description, interfaces: [ContractRef], fields: () => ({}) });

export const Erc20ContractRef = contractNode('ERC-20', 'An ERC-20 token contract.');
export const Erc721ContractRef = contractNode('ERC-721', 'An ERC-721 (NFT collection) contract.');
export const Erc1155ContractRef = contractNode('ERC-1155', 'An ERC-1155 (multi-token) contract.');
export const UnknownContractRef = contractNode('UNKNOWN', 'A contract that is not a token the indexer recognizes.');

builder.objectFields(Erc20ContractRef, (t) => ({
  symbol: t.exposeString('symbol', { nullable: true }),
  decimals: t.exposeInt('decimals'),
  coingeckoCoinId: t.string({ nullable: true, resolve: (c) => c.pricingProviders?.coingeckoCoinId ?? null }),
}));
builder.objectFields(Erc721ContractRef, (t) => ({ symbol: t.exposeString('symbol', { nullable: true }) }));
builder.objectFields(Erc1155ContractRef, (t) => ({
  symbol: t.exposeString('symbol', { nullable: true }),
  coingeckoCoinId: t.string({ nullable: true, resolve: (c) => c.pricingProviders?.coingeckoCoinId ?? null }),
}));

builder.objectFields(AddressRef, (t) => ({
  contract: t.field({
    type: ContractRef,
    nullable: true,
    description: 'The contract metadata when this address is a contract the indexer knows; null otherwise.',
    resolve: async (a, _args, ctx) => {
      try {
        return await ctx.loaders.evm.contract.load({ chainId: a.chainId, address: a.address });
      } catch (e) {
        // The upstream answers 404 both for an address that is no contract it knows ("no contract": null) and for
        // an unknown chain (an error): the chain loader (slow-moving, cached) tells them apart.
        if (!(e instanceof UpstreamError && e.kind === 'status' && e.status === 404)) throw e;
        await ctx.loaders.evm.chain.load(a.chainId);
        return null;
      }
    },
  }),
}));
