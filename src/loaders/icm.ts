import type { IcmApiClient, IcmListFilter } from '../upstream/data-api-icm.js';
import type { GatewayNetwork } from '../upstream/schemas/primary.js';
import { type LoaderDeps, pageLoader, requestLoader } from './request-loader.js';

/** ICM pages are fetched at the route's largest size; a message refetched twice in a query is one call. */
export const ICM_PAGE_SIZE = 100;

export interface IcmPageKey {
  /** Lower-case EVM address. */
  address: string;
  network?: GatewayNetwork;
  pageToken: string | null;
}

export type IcmAllPageKey = IcmListFilter & { pageToken: string | null };

export function createIcmLoaders(deps: LoaderDeps, api: IcmApiClient) {
  return {
    messagesPage: pageLoader(deps, (k: IcmPageKey) =>
      api.listMessagesByAddress(k.address, k.network, {
        pageToken: k.pageToken,
        pageSize: ICM_PAGE_SIZE,
      }),
    ),
    message: requestLoader(deps, (messageId: string) => api.getMessage(messageId)),
    /** A page of the global list (`listIcmMessages`) under its filters. */
    allMessagesPage: pageLoader(deps, ({ pageToken, ...f }: IcmAllPageKey) =>
      api.listMessages(f, { pageToken, pageSize: ICM_PAGE_SIZE }),
    ),
  };
}

export type IcmLoaders = ReturnType<typeof createIcmLoaders>;
