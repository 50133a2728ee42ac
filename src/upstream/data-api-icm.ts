import type { PageArgs } from './data-api.js';
import type { HttpClient, RequestOptions } from './http.js';
import type { Page, UpstreamRequest } from './request.js';
import { type IcmMessage, icmMessage, listIcmMessagesResponse } from './schemas/icm.js';
import type { NetworkName } from './schemas/primary.js';

/**
 * The Data API's interchain-message routes (`/v1/icm/…`, which replaced the deprecated `/v1/teleporter/…`).
 * The list is by EVM address across chains, newest first; `network` is a query parameter there.
 */
export interface IcmApiClient {
  listMessagesByAddress(
    address: string,
    network: NetworkName | undefined,
    page: PageArgs,
  ): UpstreamRequest<Page<IcmMessage>>;
  getMessage(messageId: string): UpstreamRequest<IcmMessage>;
  /** Every message, newest first, filtered as the route allows (`listIcmMessages`). */
  listMessages(filter: IcmListFilter, page: PageArgs): UpstreamRequest<Page<IcmMessage>>;
}

/** The filters of `GET /v1/icm/messages`, named as the spec names them. */
export interface IcmListFilter {
  sourceBlockchainId?: string;
  destinationBlockchainId?: string;
  blockchainId?: string;
  to?: string;
  from?: string;
  network?: NetworkName;
}

const seg = encodeURIComponent;

export function createIcmApiClient(http: HttpClient, opts: RequestOptions = {}): IcmApiClient {
  return {
    listMessagesByAddress(address, network, { pageToken, pageSize }) {
      const path = `/v1/icm/addresses/${seg(address)}/messages`;
      const query = { pageToken: pageToken ?? undefined, pageSize, network };
      return {
        upstream: 'data-api',
        resource: 'data.icmMessages',
        method: 'GET',
        path,
        query,
        pageToken,
        run: async () => {
          const res = await http.getJson(path, query, listIcmMessagesResponse, opts);
          return { items: res.messages, nextPageToken: res.nextPageToken || null };
        },
      };
    },
    listMessages(f, { pageToken, pageSize }) {
      const path = '/v1/icm/messages';
      const query = {
        pageToken: pageToken ?? undefined,
        pageSize,
        sourceBlockchainId: f.sourceBlockchainId,
        destinationBlockchainId: f.destinationBlockchainId,
        blockchainId: f.blockchainId,
        to: f.to,
        from: f.from,
        network: f.network,
      };
      return {
        upstream: 'data-api',
        resource: 'data.icmMessagesAll',
        method: 'GET',
        path,
        query,
        pageToken,
        run: async () => {
          const res = await http.getJson(path, query, listIcmMessagesResponse, opts);
          return { items: res.messages, nextPageToken: res.nextPageToken || null };
        },
      };
    },
    getMessage(messageId) {
      const path = `/v1/icm/messages/${seg(messageId)}`;
      return {
        upstream: 'data-api',
        resource: 'data.icmMessage',
        method: 'GET',
        path,
        query: {},
        run: () => http.getJson(path, {}, icmMessage, opts),
      };
    },
  };
}
