import type { PrimaryNetworkData, XAsset, XTx, XUtxo } from '../world/index.js';
import { cRows, type Row, PRIMARY_TX_TYPES as TX_TYPES } from './atomic-rows.js';
import type { Ctx } from './ctx.js';
import { badRequest, notFound } from './errors.js';
import { cmpNum, lowerBound, pageOf } from './paging.js';
import type { Route } from './router.js';

/**
 * X-Chain transactions and the C-Chain's atomic transactions in the Data API's shapes (the X- and
 * C-Chain members of getTxByHash's and listLatestPrimaryNetworkTransactions' oneOf), and an X-Chain
 * asset's transactions (listAssetTransactions).
 *
 * The world's X-Chain history stands in for both eras: transactions of its first DAG_BLOCKS blocks are
 * answered as the pre-Cortina DAG's (`XChainNonLinearTransaction`, in the vertex the vertex routes
 * answer for that block), later ones as the linear chain's (`XChainLinearTransaction`). Kinds vary
 * (mostly BaseTx, some ImportTx / ExportTx naming the chain AVAX crossed from or to). The C-Chain's
 * atomic history is generated per network: exports from EVM accounts and imports into them, each in a
 * real block of the network's C-Chain.
 */
const DAG_BLOCKS = 150;

const cache = new WeakMap<PrimaryNetworkData, { x: Row[]; c: Row[] }>();

function assetAmount(as: XAsset, amount: bigint) {
  return {
    assetId: as.assetId,
    name: as.name,
    symbol: as.symbol,
    denomination: as.denomination,
    type: 'secp256k1',
    amount: amount.toString(),
  };
}

function xUtxoJson(net: PrimaryNetworkData, as: XAsset, u: XUtxo, timestamp: number) {
  return {
    addresses: [...u.addresses],
    asset: assetAmount(as, u.amount),
    consumedOnChainId: net.info.xChainId,
    createdOnChainId: net.info.xChainId,
    utxoId: u.utxoId,
    utxoBytes: `0x${u.bytesHex}`,
    creationTxHash: u.txId,
    locktime: u.locktime,
    outputIndex: String(u.outputIndex),
    threshold: u.threshold,
    timestamp,
    utxoType: 'transfer',
  };
}

function xRows(net: PrimaryNetworkData): Row[] {
  const x = net.xChain;
  const assets = new Map(x.assets.map((a) => [a.assetId, a]));
  const utxos = new Map<string, XUtxo>();
  for (const list of x.utxosByAddress.values()) for (const u of list) utxos.set(u.utxoId, u);
  const firstHeight = x.blocks[0]?.height ?? 0;
  return x.txs.map((tx: XTx, i) => {
    const block = x.blocks[tx.blockHeight - firstHeight]!;
    const emitted = tx.utxoIds.map((id) => utxos.get(id)!).filter(Boolean);
    const created = new Map<string, bigint>();
    for (const u of emitted) created.set(u.assetId, (created.get(u.assetId) ?? 0n) + u.amount);
    const txType = i % 11 === 5 ? 'ExportTx' : i % 7 === 3 ? 'ImportTx' : 'BaseTx';
    const json: Record<string, unknown> = {
      txHash: tx.id,
      chainFormat: tx.blockHeight - firstHeight < DAG_BLOCKS ? 'non-linear' : 'linear',
      timestamp: tx.timestamp,
      txType,
      memo: tx.memo ? `0x${Buffer.from(tx.memo).toString('hex')}` : '0x',
      consumedUtxos: [],
      emittedUtxos: emitted.map((u) => xUtxoJson(net, assets.get(u.assetId)!, u, tx.timestamp)),
      amountUnlocked: [],
      amountCreated: [...created].map(([id, amount]) => assetAmount(assets.get(id)!, amount)),
      ...(txType === 'ImportTx' ? { sourceChain: net.info.pChainId } : {}),
      ...(txType === 'ExportTx' ? { destinationChain: net.info.cChainId } : {}),
    };
    if (json.chainFormat === 'non-linear')
      json.vertices = [{ hash: block.id, height: block.height, timestamp: block.timestamp }];
    else Object.assign(json, { blockHeight: block.height, blockHash: block.id });
    return {
      txHash: tx.id,
      timestamp: tx.timestamp,
      txType,
      owners: [...new Set(emitted.flatMap((u) => u.addresses))],
      assets: new Set(created.keys()),
      json,
    };
  });
}

function rowsOf(ctx: Ctx, net: PrimaryNetworkData) {
  let r = cache.get(net);
  if (!r) {
    r = { x: xRows(net), c: cRows(ctx, net) };
    cache.set(net, r);
  }
  return r;
}

/** getTxByHash for the X-Chain and the C-Chain. */
export function atomicTxByHash(
  ctx: Ctx,
  net: PrimaryNetworkData,
  kind: 'x' | 'c',
  txHash: string,
): unknown {
  const row = rowsOf(ctx, net)[kind].find((r) => r.txHash === txHash);
  if (!row) throw notFound(`Transaction ${txHash} not found on ${kind}-chain`);
  return row.json;
}

/** Walks rows (ascending by time) with the list routes' filters and page tokens. */
function listRows(
  ctx: Ctx,
  rows: Row[],
  filters: string[],
  keep: (r: Row) => boolean,
  o: { size: number; start?: number; end?: number; desc: boolean },
) {
  const lo = o.start === undefined ? 0 : lowerBound(rows, (r) => r.timestamp >= o.start!);
  const hi = o.end === undefined ? rows.length : lowerBound(rows, (r) => r.timestamp > o.end!);
  const { page, next } = pageOf(
    rows.map((_, i) => i),
    {
      lo,
      hi,
      desc: o.desc,
      size: o.size,
      after: ctx.cursor<number>(filters),
      key: (i) => i,
      cmp: cmpNum,
      filter: (i) => keep(rows[i]!),
    },
  );
  return { ...ctx.nextPage(filters, next), transactions: page.map((i) => rows[i]!.json) };
}

/**
 * Like NestJS's `forbidNonWhitelisted`: a name the route does not declare is a 400 (so a filter sent
 * under another name is never silently ignored). `txTypes` is an array parameter: it may repeat.
 */
function refuseUnknown(ctx: Ctx, names: readonly string[]): void {
  for (const name of new Set(ctx.req.query.keys()))
    if (!names.includes(name)) ctx.errors.push(`property ${name} should not exist`);
}

/** listLatestPrimaryNetworkTransactions for the X-Chain and the C-Chain. */
export function atomicTxList(ctx: Ctx, net: PrimaryNetworkData, kind: 'x' | 'c') {
  refuseUnknown(ctx, [
    'addresses',
    'l1ValidationId',
    'txTypes',
    'startTimestamp',
    'endTimestamp',
    'sortOrder',
    'pageToken',
    'pageSize',
  ]);
  const size = ctx.pageSize();
  const types = ctx.list('txTypes');
  for (const t of types) ctx.enumOf('txTypes', TX_TYPES, t);
  const start = ctx.int('startTimestamp', { min: 0 });
  const end = ctx.int('endTimestamp', { min: 0 });
  const order = ctx.enumOf('sortOrder', ['asc', 'desc'] as const) ?? 'desc';
  const owners = ctx.list('addresses').map((a) => a.replace(/^[PXC]-/, ''));
  ctx.check();
  if (ctx.q('l1ValidationId') !== undefined) throw badRequest('Invalid l1ValidationId');
  const filters = ['addresses', 'txTypes', 'startTimestamp', 'endTimestamp', 'sortOrder'];
  const wanted = new Set(owners);
  const body = listRows(
    ctx,
    rowsOf(ctx, net)[kind],
    filters,
    (r) =>
      (types.length === 0 || types.includes(r.txType)) &&
      (wanted.size === 0 || r.owners.some((a) => wanted.has(a))),
    { size, start, end, desc: order === 'desc' },
  );
  return { ...body, chainInfo: { chainName: `${kind}-chain`, network: net.info.name } };
}

const X_IDS = [
  '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM',
  '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm',
  'x-chain',
] as const;

export const primaryAtomicRoutes: Route<Ctx>[] = [
  {
    // listAssetTransactions: newest first; no sort order, no address filter on this route.
    method: 'GET',
    template: '/v1/networks/:network/blockchains/:blockchainId/assets/:assetId/transactions',
    handler: (ctx) => {
      const net = ctx.network();
      ctx.enumOf('blockchainId', X_IDS, ctx.params.blockchainId);
      refuseUnknown(ctx, ['txTypes', 'startTimestamp', 'endTimestamp', 'pageToken', 'pageSize']);
      const size = ctx.pageSize();
      const types = ctx.list('txTypes');
      for (const t of types) ctx.enumOf('txTypes', TX_TYPES, t);
      const start = ctx.int('startTimestamp', { min: 0 });
      const end = ctx.int('endTimestamp', { min: 0 });
      ctx.check();
      const assetId = ctx.params.assetId!;
      if (!net.xChain.assets.some((a) => a.assetId === assetId))
        throw notFound(`Asset ${assetId} not found`);
      const filters = ['txTypes', 'startTimestamp', 'endTimestamp'];
      const body = listRows(
        ctx,
        rowsOf(ctx, net).x,
        filters,
        (r) => r.assets.has(assetId) && (types.length === 0 || types.includes(r.txType)),
        { size, start, end, desc: true },
      );
      return { ...body, chainInfo: { chainName: 'x-chain', network: net.info.name } };
    },
  },
];
