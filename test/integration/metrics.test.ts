import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { describe, expect, it } from 'vitest';
import {
  ChainAvgTpsDocument,
  type ChainMetric,
  ChainMetricSeriesDocument,
  type ChainMetricSeriesQuery,
  ChainRollingWindowDocument,
  type TimeInterval,
} from '../__generated__/graphql.js';
import { createTestGateway, type TestGateway, useSimAndGateway } from '../support/gateway.js';
import {
  expectBadInput,
  iso,
  routeCalls,
  settle,
  upstreamGet,
  upstreamWalk,
  walk,
} from './primary-support.js';

/** Chain.metrics: series as connections over the Metrics API's page tokens (which expire), and rolling windows. */
const SERIES_ROUTE = 'metrics-api GET /v2/chains/:chainId/metrics/:metric';
const C = '43114';
const HOUR = 3600;

let sim: RunningSimulator;
let gw: TestGateway;
/** The simulator's clock (ms): page tokens expire against it. */
let clock = Date.now();
let redisUrl: string;

useSimAndGateway({ redis: true, sim: { now: () => clock } }, (s, g, r) => {
  sim = s;
  gw = g;
  redisUrl = r;
});

const upstreamSeries = (metric: string, query: Record<string, string | number | undefined>) =>
  upstreamWalk(sim.metricsApiUrl, `/v2/chains/${C}/metrics/${metric}`, 'results', query, 2160);

const seriesEdges = (
  g: TestGateway,
  metric: ChainMetric,
  vars: { startTimestamp?: number; endTimestamp?: number; timeInterval?: TimeInterval },
  first: number,
) =>
  walk(async (after) => {
    const r = await g.exec(ChainMetricSeriesDocument, {
      chainId: C,
      metric,
      first,
      after,
      ...vars,
    });
    expect(r.errors).toBeUndefined();
    return r.data!.chain!.metrics.series!;
  });

describe('Chain.metrics.avgTps: the seed’s series, from the v2 route', () => {
  it('pages the whole daily series to its end, point for point the upstream’s', async () => {
    const expected = await upstreamSeries('avgTps', {});
    expect(expected.length).toBeGreaterThan(500);
    sim.reset();
    const edges = await walk(async (after) => {
      const r = await gw.exec(ChainAvgTpsDocument, { chainId: C, first: 400, after });
      expect(r.errors).toBeUndefined();
      expect(r.data!.chain!.metrics.chainId).toBe(C);
      return r.data!.chain!.metrics.avgTps!;
    });
    expect(edges.map((e) => e.node)).toEqual(
      expected.map((p) => ({
        timestamp: p.timestamp,
        timestampIso: iso(p.timestamp),
        value: p.value,
      })),
    );
    expect(routeCalls(sim)).toEqual({ [SERIES_ROUTE]: Math.ceil(expected.length / 2160) });
  });

  it('a time range', async () => {
    const range = { startTimestamp: 1_740_000_000, endTimestamp: 1_750_000_000 };
    const expected = await upstreamSeries('avgTps', range);
    const r = await gw.exec(ChainAvgTpsDocument, {
      chainId: C,
      first: 500,
      timeInterval: 'DAY',
      ...range,
    });
    expect(r.data!.chain!.metrics.avgTps!.edges.map((e) => e.node.timestamp)).toEqual(
      expected.map((p) => p.timestamp),
    );
    expect(expected.length).toBeGreaterThan(100);
  });
});

describe('Chain.metrics.series: every other metric through the enum', () => {
  it('an hourly series across several 2160-point upstream pages: every point exactly once', async () => {
    const endTimestamp = Math.floor(sim.world.now / HOUR) * HOUR;
    const vars = {
      startTimestamp: endTimestamp - 5000 * HOUR,
      endTimestamp,
      timeInterval: 'HOUR' as const,
    };
    const expected = await upstreamSeries('txCount', { ...vars, timeInterval: 'hour' });
    expect(expected.length).toBeGreaterThan(4320);
    sim.reset();
    const edges = await seriesEdges(gw, 'TX_COUNT', vars, 500);
    expect(edges.map((e) => [e.node.timestamp, e.node.value])).toEqual(
      expected.map((p) => [p.timestamp, p.value]),
    );
    expect(new Set(edges.map((e) => e.node.timestamp)).size).toBe(expected.length);
    expect(routeCalls(sim)).toEqual({ [SERIES_ROUTE]: Math.ceil(expected.length / 2160) });
  });

  it.each([
    ['ACTIVE_ADDRESSES', 'activeAddresses', 'WEEK', 'week'],
    ['GAS_USED', 'gasUsed', 'MONTH', 'month'],
    ['CUMULATIVE_TX_COUNT', 'cumulativeTxCount', 'DAY', 'day'],
    ['MAX_TPS', 'maxTps', undefined, undefined],
  ] as const)('%s (%s) by %s', async (metric, upstream, interval, upstreamInterval) => {
    const expected = (
      await upstreamGet(sim.metricsApiUrl, `/v2/chains/${C}/metrics/${upstream}`, {
        pageSize: 2160,
        timeInterval: upstreamInterval,
      })
    ).results;
    const r = await gw.exec(ChainMetricSeriesDocument, {
      chainId: C,
      metric,
      timeInterval: interval,
      first: 50,
    });
    expect(r.errors).toBeUndefined();
    expect(r.data!.chain!.metrics.series!.edges.map((e) => e.node)).toEqual(
      expected.slice(0, 50).map((p: any) => ({ timestamp: p.timestamp, value: p.value })),
    );
  });

  it('rolling windows for the default (avgTps) and another metric equal the upstream’s', async () => {
    for (const [metric, upstream] of [
      ['AVG_TPS', 'avgTps'],
      ['FEES_PAID', 'feesPaid'],
    ] as const) {
      const { result } = await upstreamGet(
        sim.metricsApiUrl,
        `/v2/chains/${C}/rollingWindowMetrics/${upstream}`,
      );
      const r = await gw.exec(ChainRollingWindowDocument, { chainId: C, metric });
      expect(r.errors).toBeUndefined();
      const keys = [
        'lastHour',
        'lastDay',
        'lastWeek',
        'lastMonth',
        'last90Days',
        'lastYear',
        'allTime',
      ];
      expect(r.data!.chain!.metrics.rollingWindow).toEqual(
        Object.fromEntries(keys.map((k) => [k, result[k] ?? null])),
      );
    }
  });

  it('a cached series is served warm from Redis by a second gateway', async () => {
    const vars = { chainId: C, metric: 'TX_COUNT' as const, first: 100 };
    const cold = await gw.exec(ChainMetricSeriesDocument, vars);
    await settle(gw);
    sim.reset();
    const other = createTestGateway(sim, { redisUrl });
    await other.ready();
    expect((await other.exec(ChainMetricSeriesDocument, vars)).data).toEqual(cold.data);
    expect(sim.stats().total).toBe(0);
    await other.close();
  });
});

describe('page tokens expire after 24 hours', () => {
  it('a cursor whose upstream token expired is BAD_USER_INPUT / CURSOR_EXPIRED, never a wrong page', async () => {
    const endTimestamp = Math.floor(sim.world.now / HOUR) * HOUR;
    const vars = {
      chainId: C,
      metric: 'TX_COUNT' as const,
      startTimestamp: endTimestamp - 6000 * HOUR,
      endTimestamp,
      timeInterval: 'HOUR' as const,
    };
    // Walk until a cursor points into a page fetched with an upstream token (past the first 2160 points).
    const reader = createTestGateway(sim);
    let after: string | null = null;
    let seen = 0;
    while (seen < 2500) {
      const r: { data?: ChainMetricSeriesQuery | null } = await reader.exec(
        ChainMetricSeriesDocument,
        { ...vars, first: 500, after },
      );
      seen += r.data!.chain!.metrics.series!.edges.length;
      after = r.data!.chain!.metrics.series!.pageInfo.endCursor!;
    }
    const payload = JSON.parse(Buffer.from(after!.split('.')[0]!, 'base64url').toString('utf8'));
    expect(payload.kind).toBe('page');
    expect(typeof payload.token).toBe('string');
    await reader.close();

    // Within the token's life a gateway that never saw the page resumes it from the upstream.
    const fresh = createTestGateway(sim);
    const ok = await fresh.exec(ChainMetricSeriesDocument, { ...vars, first: 10, after });
    expect(ok.errors).toBeUndefined();
    expect(ok.data!.chain!.metrics.series!.edges).toHaveLength(10);
    await fresh.close();

    clock += 25 * HOUR * 1000;
    try {
      const later = createTestGateway(sim);
      sim.reset();
      const expired = await later.exec(ChainMetricSeriesDocument, { ...vars, first: 10, after });
      expectBadInput(expired, 'after');
      expect(expired.errors![0]!.extensions!.reason).toBe('CURSOR_EXPIRED');
      expect(expired.errors![0]!.message).toMatch(/restart/);
      expect(expired.data?.chain?.metrics.series ?? null).toBeNull();
      expect(routeCalls(sim)).toEqual({ [SERIES_ROUTE]: 1 });
      // Restarting without `after` works.
      const restart = await later.exec(ChainMetricSeriesDocument, { ...vars, first: 10 });
      expect(restart.errors).toBeUndefined();
      await later.close();
    } finally {
      clock -= 25 * HOUR * 1000;
    }
  });
});
