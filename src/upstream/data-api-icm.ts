import type { PageArgs } from './data-api.js';
import { dataApiBinding } from './data-api-binding.js';
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
  const { page, one } = dataApiBinding(http, opts);
  const getMessage = (messageId: string) =>
    one('data.icmMessage', `/v1/icm/messages/${seg(messageId)}`, icmMessage);
  /**
   * A list's message is the message's own answer (both routes give the same union, keyed by
   * `status`), read at the same moment: a later detail read of it is served from this page.
   */
  const messageFacts = (p: unknown) =>
    (p as Page<IcmMessage>).items.map((m) => ({ request: getMessage(m.messageId), value: m }));
  return {
    listMessagesByAddress: (address, network, paging) => ({
      ...page({
        resource: 'data.icmMessages',
        path: `/v1/icm/addresses/${seg(address)}/messages`,
        paging,
        query: { network },
        schema: listIcmMessagesResponse,
        items: (res) => res.messages,
      }),
      facts: messageFacts,
    }),
    listMessages: (f, paging) => ({
      ...page({
        resource: 'data.icmMessagesAll',
        path: '/v1/icm/messages',
        paging,
        query: {
          sourceBlockchainId: f.sourceBlockchainId,
          destinationBlockchainId: f.destinationBlockchainId,
          blockchainId: f.blockchainId,
          to: f.to,
          from: f.from,
          network: f.network,
        },
        schema: listIcmMessagesResponse,
        items: (res) => res.messages,
      }),
      facts: messageFacts,
    }),
    getMessage,
  };
}

/** The resources this client's requests name (their cache classes: `cache/policy.ts`). */
export const DATA_API_ICM_RESOURCES = [
  'data.icmMessages',
  'data.icmMessage',
  'data.icmMessagesAll',
] as const;
