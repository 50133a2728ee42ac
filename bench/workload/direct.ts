import {
  CHAIN,
  headOf,
  type Journey,
  type JourneyOptions,
  NETWORK,
  STAKING_FILTERS,
} from './journeys.js';

/**
 * The direct baseline: the same journeys when a frontend calls the upstreams itself, one call per view
 * element, as the official SDK (`@avalabs/avacloud-sdk`) does: no cache, no batching, a list's next page
 * by its `nextPageToken`. Its CUs are counted at the simulator like the gateway's.
 */
export interface DirectApi {
  data(path: string, query?: Record<string, string | undefined>): Promise<any>;
  metrics(path: string, query?: Record<string, string | undefined>): Promise<any>;
  rpc(method: string, params: unknown[]): Promise<unknown>;
}

export function directApi(base: {
  dataApiUrl: string;
  metricsApiUrl: string;
  nodeUrl: string;
}): DirectApi {
  const get = async (url: string, query: Record<string, string | undefined> = {}) => {
    const q = new URLSearchParams(
      Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined),
    );
    const r = await fetch(`${url}${q.size ? `?${q}` : ''}`);
    if (!r.ok) return undefined;
    return r.json();
  };
  let id = 0;
  return {
    data: (path, query) => get(`${base.dataApiUrl}${path}`, query),
    metrics: (path, query) => get(`${base.metricsApiUrl}${path}`, query),
    rpc: async (method, params) => {
      const r = await fetch(`${base.nodeUrl}/ext/bc/C/rpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
      });
      return ((await r.json()) as { result?: unknown }).result;
    },
  };
}

const SORT: Record<string, string> = {
  DELEGATION_CAPACITY: 'delegationCapacity',
  UPTIME_PERFORMANCE: 'uptimePerformance',
  DELEGATION_FEE: 'delegationFee',
  TIME_REMAINING: 'timeRemaining',
};
const str = (v: unknown) => (v === undefined ? undefined : String(v));
const at = <T>(list: T[] | undefined, u: number): T | undefined =>
  list?.length ? list[Math.floor(u * list.length)] : undefined;

/**
 * One journey's calls; answers how many user requests the same visit makes through the gateway (its
 * steps in journeys.ts, the same pages followed), the denominator of CUs per 1,000 user requests.
 */
export async function runDirect(j: Journey, api: DirectApi, o: JourneyOptions): Promise<number> {
  const c = `/v1/chains/${CHAIN}`;
  const a = `${c}/addresses/${j.address}`;
  const n = `/v1/networks/${NETWORK}`;
  switch (j.kind) {
    case 'explorer-home':
      await Promise.all([
        api.data(`${c}/blocks`, { pageSize: '10' }),
        api.data(`${c}/transactions`, { pageSize: '10' }),
        api.metrics(`/v2/chains/${CHAIN}/metrics/avgTps`, { timeInterval: 'day', pageSize: '30' }),
        api.metrics(`/v2/chains/${CHAIN}/metrics/activeAddresses`, {
          timeInterval: 'day',
          pageSize: '30',
        }),
      ]);
      return 2;
    case 'explorer-block': {
      const id = o.pop.blockNumber(j.blockRank, headOf(j, o));
      const [, txs] = await Promise.all([
        api.data(`${c}/blocks/${id}`),
        api.data(`${c}/blocks/${id}/transactions`, { pageSize: '25' }),
      ]);
      const tx = at<{ txHash: string }>(txs?.transactions, j.pick);
      if (tx) await api.data(`${c}/transactions/${tx.txHash}`);
      return tx ? 2 : 1;
    }
    case 'explorer-address': {
      const [, native, erc20] = await Promise.all([
        api.data(`${a}/balances:getNative`),
        api.data(`${a}/transactions:listNative`, { pageSize: '25' }),
        api.data(`${a}/transactions:listErc20`, { pageSize: '25' }),
      ]);
      if (native?.nextPageToken)
        await api.data(`${a}/transactions:listNative`, {
          pageSize: '25',
          pageToken: native.nextPageToken,
        });
      if (erc20?.nextPageToken)
        await api.data(`${a}/transactions:listErc20`, {
          pageSize: '25',
          pageToken: erc20.nextPageToken,
        });
      return 3 + (native?.nextPageToken ? 1 : 0) + (erc20?.nextPageToken ? 1 : 0);
    }
    case 'wallet': {
      await Promise.all([
        api.data(`${a}/balances:getNative`),
        api.data(`${a}/balances:listErc20`, { pageSize: '50' }),
        api.data(`${a}/balances:listErc721`, { pageSize: '24' }),
        api.data(`${a}/balances:listCollectibles`, { pageSize: '24' }),
      ]);
      const page1 = await api.data(`${a}/transactions`, { pageSize: '20' });
      if (page1?.nextPageToken)
        await api.data(`${a}/transactions`, { pageSize: '20', pageToken: page1.nextPageToken });
      await Promise.all([
        api.rpc('eth_blockNumber', []),
        api.rpc('eth_getBalance', [j.address, 'latest']),
        api.rpc('eth_getTransactionCount', [j.address, 'latest']),
      ]);
      return 2 + (page1?.nextPageToken ? 1 : 0) + 1;
    }
    case 'staking': {
      const f = STAKING_FILTERS[j.filter]!;
      await api.data(`${n}/validators`, {
        pageSize: '25',
        validationStatus: 'active',
        sortOrder: 'desc',
        sortBy: SORT[String(f.sortBy)],
        minDelegationCapacity: str(f.minDelegationCapacity),
        minUptimePerformance: str(f.minUptimePerformance),
        maxFeePercentage: str(f.maxFeePercentage),
      });
      await Promise.all([
        api.data(`${n}/validators/${j.nodeId}`),
        api.data(`${n}/delegators`, { nodeIds: j.nodeId, pageSize: '20' }),
      ]);
      await api.data(`${n}/rewards:listPending`, { nodeIds: j.nodeId, pageSize: '20' });
      await Promise.all([
        api.metrics(`/v2/networks/${NETWORK}/metrics/validatorCount`, { pageSize: '30' }),
        api.metrics(`/v2/networks/${NETWORK}/metrics/delegatorWeight`, { pageSize: '30' }),
      ]);
      return 4;
    }
    case 'icm': {
      const list = await api.data(`/v1/icm/addresses/${j.address}/messages`, { pageSize: '20' });
      const m = at<{ messageId: string }>(list?.messages, j.pick);
      if (!m) return 1;
      const msg = await api.data(`/v1/icm/messages/${m.messageId}`);
      if (!msg) return 2;
      await Promise.all([
        api.data(`/v1/chains/${msg.sourceEvmChainId}`),
        api.data(`/v1/chains/${msg.destinationEvmChainId}`),
        msg.sourceTransaction?.txHash
          ? api.data(
              `/v1/chains/${msg.sourceEvmChainId}/transactions/${msg.sourceTransaction.txHash}`,
            )
          : undefined,
      ]);
      return 2;
    }
  }
}
