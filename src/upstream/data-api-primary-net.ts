import type { z } from 'zod';
import type { PageArgs } from './data-api.js';
import { dataApiBinding } from './data-api-binding.js';
import type { PrimaryChainAlias, SortOrder } from './data-api-primary.js';
import { buildSearch, type HttpClient, type RequestOptions, withCall } from './http.js';
import type { Page, UpstreamRequest } from './request.js';
import type { NetworkName, PrimaryChainInfo } from './schemas/primary.js';
import {
  type AddressChainIds,
  type AvaxSupply,
  addressChainIds,
  avaxSupply,
  type BlockchainRaw,
  blockchain,
  type IndexedUtxo,
  type LastActivity,
  lastActivity,
  listBlockchainsResponse,
  listSubnetsResponse,
  listUtxosResponse,
  type SubnetRaw,
  subnet,
} from './schemas/primary-net.js';
import type { PChainUtxo } from './schemas/primary-staking.js';

/**
 * The Data API's primary-network routes for subnets and blockchains, UTXOs and last activity by
 * addresses, the chain ids of addresses and the AVAX supply. Each method describes one upstream
 * call.
 *
 * Addresses travel as the spec says: one comma-separated `addresses` value, in the query (GET) or,
 * for lists too long for a URL, in the JSON body of the V2 POST routes
 * (`PrimaryNetworkAddressesBodyDto`). Those POSTs are reads: the same body always asks the same
 * question, so they are cached like GETs (the body is part of the cache key: `keys.request` hashes
 * it) and retried on transient failures like GETs (http.ts retries POSTs unless a call says `retry:
 * false`, as signature aggregation does: that POST does real work upstream, these do not).
 */

/**
 * Longest query string (all parameters, page token included) sent on a GET address route; past it
 * the V2 POST carries the addresses in the body. 2 KiB stays inside what every proxy and CDN on the
 * way accepts (many stop at 4–8 KiB for the whole request line); 64 bech32 addresses already pass
 * it.
 */
export const MAX_ADDRESS_QUERY_CHARS = 2048;

/** Largest page each route allows (spec): GET UTXOs 100, V2 POST UTXOs 1024. */
export const UTXO_PAGE_SIZE = { GET: 100, POST: 1024 } as const;

/**
 * Room kept in the query for the other parameters (page token, filters) when deciding GET vs POST.
 */
const OTHER_PARAMS_ALLOWANCE = 400;

/** True when the addresses, comma-separated in a URL, would make the query too long for a GET. */
export function addressesNeedPost(addresses: readonly string[]): boolean {
  return (
    buildSearch({ addresses: addresses.join(',') }).length + OTHER_PARAMS_ALLOWANCE >
    MAX_ADDRESS_QUERY_CHARS
  );
}

export interface UtxoFilter {
  /** X-Chain only (the spec: "only applicable X-Chain"). */
  assetId?: string;
  /** Inclusive minimum in nAVAX, a decimal integer string. */
  minUtxoAmount?: string;
  includeSpent?: boolean;
  sortBy?: 'timestamp' | 'amount';
  sortOrder?: SortOrder;
}

export type UtxoPage = Page<PChainUtxo | IndexedUtxo> & { chainInfo: PrimaryChainInfo };

export interface PrimaryNetApiClient {
  listSubnets(
    network: NetworkName,
    filter: { sortOrder?: SortOrder },
    page: PageArgs,
  ): UpstreamRequest<Page<SubnetRaw>>;
  getSubnet(network: NetworkName, subnetId: string): UpstreamRequest<SubnetRaw>;
  listBlockchains(
    network: NetworkName,
    filter: { sortOrder?: SortOrder },
    page: PageArgs,
  ): UpstreamRequest<Page<BlockchainRaw>>;
  getBlockchain(network: NetworkName, blockchainId: string): UpstreamRequest<BlockchainRaw>;
  /**
   * getUtxosByAddresses (GET), or getUtxosByAddressesV2 (POST) when the addresses are too long for
   * a URL.
   */
  listUtxos(
    network: NetworkName,
    chain: PrimaryChainAlias,
    addresses: readonly string[],
    filter: UtxoFilter,
    page: PageArgs,
  ): UpstreamRequest<UtxoPage>;
  /** getLastActivityTimestampByAddresses (GET), or its V2 POST for long address lists. */
  getLastActivity(
    network: NetworkName,
    chain: PrimaryChainAlias,
    addresses: readonly string[],
  ): UpstreamRequest<LastActivity>;
  getChainIdsForAddresses(
    network: NetworkName,
    addresses: readonly string[],
  ): UpstreamRequest<AddressChainIds[]>;
  getAvaxSupply(): UpstreamRequest<AvaxSupply>;
}

const seg = encodeURIComponent;

export function createPrimaryNetApiClient(
  http: HttpClient,
  opts: RequestOptions = {},
): PrimaryNetApiClient {
  const { get, page } = dataApiBinding(http, opts);

  /**
   * A GET with `addresses` in the query, or the V2 POST with them in the body (same path, same
   * answer).
   */
  const byAddresses = <T>(
    resource: UpstreamRequest<T>['resource'],
    path: string,
    addresses: readonly string[],
    query: UpstreamRequest<T>['query'],
    send: (
      method: 'GET' | 'POST',
      query: UpstreamRequest<T>['query'],
      body: { addresses: string } | undefined,
      o: RequestOptions,
    ) => Promise<T>,
    pageToken?: string | null,
  ): UpstreamRequest<T> => {
    const joined = addresses.join(',');
    if (!addressesNeedPost(addresses)) {
      const q = { ...query, addresses: joined };
      return {
        upstream: 'data-api',
        resource,
        method: 'GET',
        path,
        query: q,
        pageToken,
        run: (call) => send('GET', q, undefined, withCall(opts, call)),
      };
    }
    const body = { addresses: joined };
    return {
      upstream: 'data-api',
      resource,
      method: 'POST',
      path,
      query,
      body,
      pageToken,
      run: (call) => send('POST', query, body, withCall(opts, call)),
    };
  };

  /** A network's subnets or blockchains, one page in `sortOrder`: the route, its resource and its list. */
  const networkList =
    <K extends 'subnets' | 'blockchains', T>(
      list: K,
      schema: z.ZodType<{ nextPageToken?: string } & Record<K, T[]>>,
    ) =>
    (network: NetworkName, filter: { sortOrder?: SortOrder }, paging: PageArgs) =>
      page({
        resource: `data.${list}`,
        path: `/v1/networks/${seg(network)}/${list}`,
        paging,
        query: { sortOrder: filter.sortOrder },
        schema,
        items: (res) => res[list],
      });

  return {
    listSubnets: networkList('subnets', listSubnetsResponse),
    getSubnet(network, subnetId) {
      const path = `/v1/networks/${seg(network)}/subnets/${seg(subnetId)}`;
      return get('data.subnet', path, {}, (call) =>
        http.getJson(path, {}, subnet, withCall(opts, call)),
      );
    },
    listBlockchains: networkList('blockchains', listBlockchainsResponse),
    getBlockchain(network, blockchainId) {
      const path = `/v1/networks/${seg(network)}/blockchains/${seg(blockchainId)}`;
      return get('data.blockchain', path, {}, (call) =>
        http.getJson(path, {}, blockchain, withCall(opts, call)),
      );
    },
    listUtxos(network, chain, addresses, filter, { pageToken, pageSize }) {
      const path = `/v1/networks/${seg(network)}/blockchains/${chain}/utxos`;
      const query = {
        pageToken: pageToken ?? undefined,
        pageSize,
        assetId: filter.assetId,
        minUtxoAmount: filter.minUtxoAmount,
        includeSpent: filter.includeSpent,
        sortBy: filter.sortBy,
        sortOrder: filter.sortOrder,
      };
      return byAddresses(
        'data.primaryUtxos',
        path,
        addresses,
        query,
        async (method, q, body, o) => {
          const res =
            method === 'GET'
              ? await http.getJson(path, q, listUtxosResponse, o)
              : await http.postJson(path, body, listUtxosResponse, o, q);
          return {
            items: res.utxos,
            nextPageToken: res.nextPageToken || null,
            chainInfo: res.chainInfo,
          };
        },
        pageToken,
      );
    },
    getLastActivity(network, chain, addresses) {
      const base = `/v1/networks/${seg(network)}/blockchains/${chain}`;
      const path = `${base}/lastActivityTimestampByAddresses`;
      return byAddresses('data.lastActivity', path, addresses, {}, (method, q, body, o) =>
        method === 'GET'
          ? http.getJson(path, q, lastActivity, o)
          : http.postJson(path, body, lastActivity, o, q),
      );
    },
    getChainIdsForAddresses(network, addresses) {
      const path = `/v1/networks/${seg(network)}/addresses:listChainIds`;
      const query = { addresses: addresses.join(',') };
      return get(
        'data.addressChainIds',
        path,
        query,
        async (call) =>
          (await http.getJson(path, query, addressChainIds, withCall(opts, call))).addresses,
      );
    },
    getAvaxSupply() {
      const path = '/v1/avax/supply';
      return get('data.avaxSupply', path, {}, (call) =>
        http.getJson(path, {}, avaxSupply, withCall(opts, call)),
      );
    },
  };
}

/** The resources this client's requests name (their cache classes: `cache/policy.ts`). */
export const DATA_API_PRIMARY_NET_RESOURCES = [
  'data.subnets',
  'data.subnet',
  'data.blockchains',
  'data.blockchain',
  'data.primaryUtxos',
  'data.lastActivity',
  'data.addressChainIds',
  'data.avaxSupply',
] as const;
