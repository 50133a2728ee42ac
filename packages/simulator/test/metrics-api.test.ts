import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../src/index.js';

/** The simulated Metrics API: routes, paging with page tokens, validation errors. */

let sim: RunningSimulator;
let clock = Date.UTC(2026, 0, 1);
beforeAll(async () => {
  sim = await startSimulator({ port: 0, pageTokenTtlMs: 60_000, now: () => clock });
});
afterAll(() => sim.close());

async function get(path: string, query: Record<string, string | number | undefined> = {}) {
  const u = new URL(`${sim.metricsApiUrl}${path}`);
  for (const [k, v] of Object.entries(query)) if (v !== undefined) u.searchParams.set(k, String(v));
  const res = await fetch(u);
  return { status: res.status, body: (await res.json()) as any };
}

type Point = { value: number; timestamp: number };

/** Every point of a metric query, following nextPageToken. */
async function walk(
  path: string,
  query: Record<string, string | number | undefined>,
  tokenParam = 'pageToken',
  nextField = 'nextPageToken',
) {
  const points: Point[] = [];
  let token: string | undefined;
  let pages = 0;
  do {
    const r = await get(path, { ...query, [tokenParam]: token });
    expect(r.status).toBe(200);
    points.push(...r.body.results);
    token = r.body[nextField];
    if (token !== undefined)
      expect(token).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    pages++;
  } while (token);
  return { points, pages };
}

const DAY = 86_400;
const HOUR = 3_600;

describe('Metrics API', () => {
  it('lists chains and gets one', async () => {
    const list = await get('/v2/chains');
    expect(list.body.chains.map((c: any) => c.evmChainId)).toEqual(
      sim.world.chains.map((c) => Number(c.chainId)),
    );
    expect(
      (await get('/v2/chains', { network: 'fuji' })).body.chains.map((c: any) => c.evmChainId),
    ).toEqual([43113]);
    expect((await get('/v2/chains/43114')).body).toEqual({
      evmChainId: 43114,
      chainName: 'c_chain',
      blockchainId: sim.world.networks.mainnet.cChainId,
      subnetId: '11111111111111111111111111111111LpoYY',
      network: 'mainnet',
    });
    expect((await get('/v2/chains/1')).status).toBe(404);
  });

  it('walks every point exactly once, newest first, across pages', async () => {
    const end = Math.floor(sim.world.now / HOUR) * HOUR - 5 * DAY;
    const start = end - 10 * DAY;
    const query = { timeInterval: 'hour', startTimestamp: start, endTimestamp: end, pageSize: 37 };
    const { points, pages } = await walk('/v2/chains/43114/metrics/txCount', query);
    expect(pages).toBe(Math.ceil(points.length / 37));
    expect(points.length).toBe(10 * 24 + 1);
    for (let i = 1; i < points.length; i++)
      expect(points[i - 1]!.timestamp - points[i]!.timestamp).toBe(HOUR);
    expect(points[0]!.timestamp).toBe(Math.floor(end / HOUR) * HOUR);
    const single = await get('/v2/chains/43114/metrics/txCount', { ...query, pageSize: 2160 });
    expect(single.body.nextPageToken).toBeUndefined();
    expect(single.body.results).toEqual(points);
  });

  it('pages a long daily series with the default page size', async () => {
    const { points, pages } = await walk('/v2/chains/mainnet/metrics/activeAddresses', {});
    expect(pages).toBeGreaterThan(10);
    expect(new Set(points.map((p) => p.timestamp)).size).toBe(points.length);
    expect(points[0]!.timestamp).toBe(Math.floor(sim.world.now / DAY) * DAY);
    const first = await get('/v2/chains/mainnet/metrics/activeAddresses');
    expect(first.body.results).toHaveLength(100);
  });

  it('aligns weeks to Mondays and months to the 1st', async () => {
    const weeks = (
      await get('/v2/chains/43114/metrics/txCount', { timeInterval: 'week', pageSize: 5 })
    ).body.results;
    for (const w of weeks) expect(new Date(w.timestamp * 1000).getUTCDay()).toBe(1);
    const months = (
      await get('/v2/chains/43114/metrics/txCount', { timeInterval: 'month', pageSize: 5 })
    ).body.results;
    for (const m of months) expect(new Date(m.timestamp * 1000).getUTCDate()).toBe(1);
  });

  it('keeps the metrics consistent with each other and aggregates as sums', async () => {
    const q = { startTimestamp: sim.world.now - 30 * DAY, endTimestamp: sim.world.now - 20 * DAY };
    const tx = (await get('/v2/chains/43114/metrics/txCount', q)).body.results as Point[];
    const tps = (await get('/v2/chains/43114/metrics/avgTps', q)).body.results as Point[];
    for (const [i, p] of tx.entries()) expect(tps[i]!.value).toBeCloseTo(p.value / DAY, 2);
    const hours = (
      await get('/v2/chains/43114/metrics/txCount', { ...q, timeInterval: 'hour', pageSize: 2160 })
    ).body.results as Point[];
    const day = tx[3]!;
    const inDay = hours.filter(
      (h) => h.timestamp >= day.timestamp && h.timestamp < day.timestamp + DAY,
    );
    expect(inDay.reduce((s, h) => s + h.value, 0)).toBe(day.value);
    const parts = await Promise.all(
      ['43114', '43113', sim.world.fixtures.l1ChainId].map((c) =>
        get(`/v2/chains/${c}/metrics/txCount`, q),
      ),
    );
    const total = (await get('/v2/chains/total/metrics/txCount', q)).body.results as Point[];
    for (const [i, p] of total.entries())
      expect(p.value).toBe(parts.reduce((s, r) => s + (r.body.results[i]?.value ?? 0), 0));
    const cum = (await get('/v2/chains/43114/metrics/cumulativeTxCount', q)).body
      .results as Point[];
    expect(cum[0]!.value - cum[1]!.value).toBe(tx[0]!.value);
  });

  it('answers invalid parameters with the real 400 body (message is an array)', async () => {
    expect(await get('/v2/chains/43114/metrics/txCount', { pageSize: 2161 })).toEqual({
      status: 400,
      body: {
        message: ['pageSize must not be greater than 2160'],
        statusCode: 400,
        error: 'Bad Request',
      },
    });
    const many = await get('/v2/chains/43114/metrics/nope', {
      pageSize: 0,
      timeInterval: 'year',
      startTimestamp: -1,
    });
    expect(many.status).toBe(400);
    expect(many.body.message).toEqual([
      'metric must be one of the following values: activeAddresses, activeSenders, cumulativeTxCount, cumulativeAddresses, cumulativeContracts, cumulativeDeployers, contracts, deployers, gasUsed, txCount, avgGps, maxGps, avgTps, maxTps, avgGasPrice, maxGasPrice, feesPaid',
      'startTimestamp must not be less than 0',
      'timeInterval must be one of the following values: hour, day, week, month',
      'pageSize must not be less than 1',
    ]);
    const hourly = await get('/v2/chains/43114/metrics/avgTps', { timeInterval: 'hour' });
    expect(hourly.status).toBe(400);
    expect(hourly.body.message).toEqual([
      'timeInterval hour is not supported for metric avgTps; only day is supported',
    ]);
    expect(
      (await get('/v2/chains/43114/metrics/txCount', { pageSize: 'ten' })).body.message,
    ).toEqual(['pageSize must be an integer number']);
    expect((await get('/v2/chains/x1/metrics/txCount')).status).toBe(400);
    expect((await get('/v2/chains/999/metrics/txCount')).status).toBe(404);
    expect((await get('/v2/nowhere')).body).toEqual({
      message: ['Cannot GET /v2/nowhere'],
      statusCode: 404,
      error: 'Not Found',
    });
  });

  it('binds tokens to their query and expires them', async () => {
    const first = await get('/v2/chains/43114/metrics/txCount', { pageSize: 2 });
    const token = first.body.nextPageToken as string;
    const other = await get('/v2/chains/43114/metrics/gasUsed', { pageSize: 2, pageToken: token });
    expect(other.status).toBe(400);
    expect(other.body.message[0]).toMatch(/different query/);
    expect(
      (await get('/v2/chains/43114/metrics/txCount', { pageSize: 5, pageToken: token })).status,
    ).toBe(200);
    expect(
      (await get('/v2/chains/43114/metrics/txCount', { pageToken: 'not-a-token' })).status,
    ).toBe(400);
    clock += 61_000;
    const expired = await get('/v2/chains/43114/metrics/txCount', {
      pageSize: 2,
      pageToken: token,
    });
    expect(expired).toEqual({
      status: 400,
      body: {
        message: ['pageToken has expired; start again from the first page'],
        statusCode: 400,
        error: 'Bad Request',
      },
    });
  });

  it('answers rolling windows', async () => {
    const tx = (await get('/v2/chains/43114/rollingWindowMetrics/txCount')).body.result;
    expect(Object.keys(tx)).toEqual([
      'lastHour',
      'lastDay',
      'lastWeek',
      'lastMonth',
      'last90Days',
      'lastYear',
      'allTime',
    ]);
    expect(tx.lastHour).toBeLessThan(tx.lastDay);
    expect(tx.lastYear).toBeLessThan(tx.allTime);
    expect(
      Object.keys((await get('/v2/chains/total/rollingWindowMetrics/activeSenders')).body.result),
    ).toEqual(['lastHour', 'lastDay', 'lastWeek']);
    expect((await get('/v2/chains/43114/rollingWindowMetrics/cumulativeTxCount')).status).toBe(400);
  });

  it('answers staking metrics from the world', async () => {
    const mainnet = sim.world.primary.mainnet;
    const active = mainnet.validators.filter(
      (v) => v.startTimestamp <= sim.world.now && v.endTimestamp > sim.world.now,
    );
    const count = (await get('/v2/networks/mainnet/metrics/validatorCount', { pageSize: 1 })).body;
    expect(count.results[0].value).toBe(active.length);
    expect(count.nextPageToken).toBeDefined();
    const l1 = await get('/v2/networks/mainnet/metrics/validatorCount', {
      subnetId: sim.world.fixtures.l1SubnetId,
      pageSize: 1,
    });
    expect(l1.body.results[0].value).toBe(
      mainnet.l1Validators.filter((v) => v.subnetId === sim.world.fixtures.l1SubnetId && v.active)
        .length,
    );
    expect((await get('/v2/networks/testnet/metrics/delegatorWeight')).status).toBe(200);
    expect((await get('/v2/networks/devnet/metrics/validatorCount')).body.message).toEqual([
      'network must be one of the following values: mainnet, fuji, testnet',
    ]);
  });

  it('serves the legacy /v1/avg_tps route with status, lastRun and nextPageStartKey', async () => {
    const r = await get('/v1/avg_tps/43114', { from: 1724457600, to: 1724716800 });
    expect(r.body).toMatchObject({ status: 200, lastRun: expect.any(Number) });
    expect(r.body.results.map((p: Point) => p.timestamp)).toEqual([
      1724716800, 1724630400, 1724544000, 1724457600,
    ]);
    expect(r.body.nextPageStartKey).toBeUndefined();
    const v2 = (
      await get('/v2/chains/43114/metrics/avgTps', {
        startTimestamp: 1724457600,
        endTimestamp: 1724716800,
      })
    ).body.results;
    expect(r.body.results).toEqual(
      v2.map((p: Point) => ({ timestamp: p.timestamp, value: p.value })),
    );
    const byKey = await walk(
      '/v1/avg_tps/mainnet',
      { from: sim.world.now - 400 * DAY },
      'startKey',
      'nextPageStartKey',
    );
    const byToken = await walk(
      '/v1/avg_tps/mainnet',
      { from: sim.world.now - 400 * DAY },
      'pageToken',
      'nextPageStartKey',
    );
    expect(byKey.pages).toBeGreaterThan(1);
    expect(byKey.points).toEqual(byToken.points);
    expect(new Set(byKey.points.map((p) => p.timestamp)).size).toBe(byKey.points.length);
  });
});
