import { isBech32, type PrimaryNetworkData } from '../world/index.js';
import { pUtxosOf } from '../world/subnets.js';
import type { Ctx } from './ctx.js';
import { badRequest, notFound } from './errors.js';
import { only } from './operation-params.js';
import { pageOf } from './paging.js';
import type { Route } from './router.js';
import { chainKind, chainName, utxoRows } from './utxo-rows.js';

/**
 * UTXOs and last activity by addresses (GET, and the V2 POST with the addresses in the body)
 * and the chain ids of addresses.
 */

const BLOCKCHAIN_IDS = [
  '11111111111111111111111111111111LpoYY',
  '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM',
  '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm',
  '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5',
  'yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp',
  'p-chain',
  'x-chain',
  'c-chain',
] as const;

/** `addresses` from the query (GET) or the JSON body (V2 POST: `PrimaryNetworkAddressesBodyDto`) */
function addressesOf(
  ctx: Ctx,
  net: PrimaryNetworkData,
  fromBody: boolean,
  required: boolean,
): string[] {
  let raw: string[];
  if (fromBody) {
    let body: unknown;
    try {
      body = JSON.parse(ctx.req.rawBody);
    } catch {
      throw badRequest('The request body must be a JSON object');
    }
    const a = (body as { addresses?: unknown } | null)?.addresses;
    if (typeof a !== 'string') throw badRequest('addresses must be a string');
    const extra = Object.keys(body as object).filter((k) => k !== 'addresses');
    if (extra.length > 0) throw badRequest(...extra.map((k) => `property ${k} should not exist`));
    raw = a
      .split(',')
      .map((x) => x.trim())
      .filter((x) => x !== '');
  } else raw = ctx.list('addresses');
  if (required && raw.length === 0) throw badRequest('addresses should not be empty');
  const out = raw.map((a) => a.replace(/^[PXC]-/, ''));
  if (out.some((a) => !isBech32(a, net.info.hrp))) throw badRequest('Invalid address format');
  return [...new Set(out)];
}

type Key = [string, string];
const cmpKey = (a: Key, b: Key) => {
  const x = BigInt(a[0]);
  const y = BigInt(b[0]);
  return x < y ? -1 : x > y ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;
};

function utxos(ctx: Ctx, post: boolean) {
  const net = ctx.network();
  const id = ctx.enumOf('blockchainId', BLOCKCHAIN_IDS, ctx.params.blockchainId);
  only(ctx, post ? 'getUtxosByAddressesV2' : 'getUtxosByAddresses');
  const size = ctx.pageSize(1, post ? 1024 : 100, 10);
  const raw = ctx.q('minUtxoAmount');
  if (raw !== undefined && !/^\d+(\.\d+)?$/.test(raw))
    ctx.errors.push('minUtxoAmount must not be less than 0');
  const includeSpent = ctx.bool('includeSpent') ?? false;
  const sortBy = ctx.enumOf('sortBy', ['timestamp', 'amount'] as const) ?? 'timestamp';
  const order = ctx.enumOf('sortOrder', ['asc', 'desc'] as const) ?? 'asc';
  const assetId = ctx.q('assetId');
  ctx.check();
  const kind = chainKind(net, id!);
  const addrs = addressesOf(ctx, net, post, true);
  const min = raw === undefined ? 0n : BigInt(raw.split('.')[0]!);
  // The addresses are part of what a token is bound to, from the query or from the body.
  const filters = [
    'assetId',
    'minUtxoAmount',
    'includeSpent',
    'sortBy',
    'sortOrder',
    post ? `body:${addrs.join(',')}` : 'addresses',
  ];
  const rows = utxoRows(ctx, net, kind, addrs, sortBy);
  const { page, next } = pageOf(rows, {
    desc: order === 'desc',
    size,
    after: ctx.cursor<Key>(filters),
    key: (r): Key => [r.sort.toString(), r.id],
    cmp: cmpKey,
    filter: (r) =>
      (includeSpent || !r.spent) &&
      r.amount >= min &&
      (assetId === undefined || kind !== 'x' || r.assetId === assetId),
  });
  return {
    ...ctx.nextPage(filters, next),
    utxos: page.map((r) => r.json),
    chainInfo: { chainName: chainName[kind], network: net.info.name },
  };
}

function lastActivity(ctx: Ctx, post: boolean) {
  const net = ctx.network();
  const id = ctx.enumOf('blockchainId', BLOCKCHAIN_IDS, ctx.params.blockchainId);
  only(ctx, post ? 'getLastActivityTimestampByAddressesV2' : 'getLastActivityTimestampByAddresses');
  ctx.check();
  const kind = chainKind(net, id!);
  const addrs = addressesOf(ctx, net, post, true);
  let best:
    | {
        timestamp: number;
        blockNumber: string;
        txHash: string;
        utxoId: string;
        isConsumed: boolean;
      }
    | undefined;
  const consider = (e: NonNullable<typeof best>) => {
    if (
      !best ||
      e.timestamp > best.timestamp ||
      (e.timestamp === best.timestamp && e.utxoId > best.utxoId)
    )
      best = e;
  };
  for (const r of utxoRows(ctx, net, kind, addrs, 'timestamp')) {
    const j = r.json as Record<string, unknown>;
    const created = Number(j.blockTimestamp ?? j.timestamp);
    consider({
      timestamp: created,
      blockNumber: String(r.block),
      txHash: String(j.txHash ?? j.creationTxHash),
      utxoId: r.id,
      isConsumed: false,
    });
    if (j.consumingTxHash) {
      consider({
        timestamp: Number(j.consumingBlockTimestamp),
        blockNumber: String(j.consumingBlockNumber),
        txHash: String(j.consumingTxHash),
        utxoId: r.id,
        isConsumed: true,
      });
    }
  }
  if (!best) throw notFound('No activity found for the given addresses');
  return { ...best, chainName: chainName[kind], network: net.info.name };
}

export const addressUtxoRoutes: Route<Ctx>[] = [
  {
    method: 'GET',
    template: '/v1/networks/:network/blockchains/:blockchainId/utxos',
    handler: (ctx) => utxos(ctx, false),
  },
  {
    method: 'POST',
    template: '/v1/networks/:network/blockchains/:blockchainId/utxos',
    handler: (ctx) => utxos(ctx, true),
  },
  {
    method: 'GET',
    template: '/v1/networks/:network/blockchains/:blockchainId/lastActivityTimestampByAddresses',
    handler: (ctx) => lastActivity(ctx, false),
  },
  {
    method: 'POST',
    template: '/v1/networks/:network/blockchains/:blockchainId/lastActivityTimestampByAddresses',
    handler: (ctx) => lastActivity(ctx, true),
  },
  {
    method: 'GET',
    template: '/v1/networks/:network/addresses:listChainIds',
    handler: (ctx) => {
      const net = ctx.network();
      only(ctx, 'getChainIdsForAddresses');
      ctx.check();
      const addrs = addressesOf(ctx, net, false, true);
      return {
        addresses: addrs.map((address) => ({
          address,
          blockchainIds: [
            ...(pUtxosOf(ctx.world.seed, net, address).length > 0 ? [net.info.pChainId] : []),
            ...((net.xChain.utxosByAddress.get(address)?.length ?? 0) > 0
              ? [net.info.xChainId]
              : []),
            ...(net.cAtomicBalances.has(address) ? [net.info.cChainId] : []),
          ],
        })),
      };
    },
  },
];
