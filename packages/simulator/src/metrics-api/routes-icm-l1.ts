import { PageTokens } from '../data-api/page-tokens.js';
import { isCb58Id } from '../node-rpc/go-args.js';
import type { IcmMessage, L1ValidatorRecord, World } from '../world/index.js';
import { MAX_PAGE_SIZE } from './routes-chains.js';
import { bucketStart, DAY, HOUR, type Interval } from './time.js';
import { Checker, MetricsError } from './validate.js';

/**
 * ICM message counts (getICMTimeseries, getICMSummary) and L1 validator fee series
 * (getTotalL1ValidatorMetrics, getMetricsByValidationId, getMetricsByNodeId, getMetricsBySubnetId),
 * computed from the world's records so they agree with the Data API: an ICM message counts in the
 * bucket of its timestamp; an active L1 validator pays a fixed continuous fee per day from its
 * creation day (mainnet L1s; the routes take no network). Series are newest first. Unknown query
 * parameters are refused (NestJS `forbidNonWhitelisted`).
 */

export const ICM_TIMESERIES_PARAMS = [
  'startTimestamp',
  'endTimestamp',
  'srcBlockchainId',
  'destBlockchainId',
  'timeInterval',
  'pageToken',
  'pageSize',
  'groupBy',
  'network',
] as const;
export const ICM_SUMMARY_PARAMS = [
  'srcBlockchainId',
  'destBlockchainId',
  'groupBy',
  'network',
] as const;
export const L1_METRIC_PARAMS = ['startTimestamp', 'endTimestamp'] as const;
const GROUP_BY = [
  'srcBlockchainId',
  'destBlockchainId',
  'srcBlockchainId,destBlockchainId',
] as const;
const NETWORKS = ['mainnet', 'fuji', 'testnet'] as const;

/** nAVAX an active L1 validator pays per day (512 nAVAX/s, the minimum continuous fee rate). */
export const L1_DAILY_FEE = 512 * 86_400;

function icmSelection(world: World, query: URLSearchParams, check: Checker) {
  const src = query.get('srcBlockchainId') ?? undefined;
  const dst = query.get('destBlockchainId') ?? undefined;
  for (const [name, v] of [
    ['srcBlockchainId', src],
    ['destBlockchainId', dst],
  ] as const) {
    if (v !== undefined && !isCb58Id(v))
      check.add(`${name} must be a valid CB58-encoded blockchain ID`);
  }
  const groupBy = check.oneOf('groupBy', GROUP_BY);
  const network = check.oneOf('network', NETWORKS);
  const net = network === 'testnet' ? 'fuji' : network;
  const keep = (m: IcmMessage) =>
    (src === undefined || m.sourceBlockchainId === src) &&
    (dst === undefined || m.destinationBlockchainId === dst) &&
    (net === undefined || m.network === net);
  const groupOf = (m: IcmMessage) => ({
    srcBlockchainId: groupBy?.includes('src') || src !== undefined ? m.sourceBlockchainId : '',
    destBlockchainId:
      groupBy?.includes('dest') || dst !== undefined ? m.destinationBlockchainId : '',
  });
  return { messages: world.icm.messages.filter(keep), groupOf };
}

export function createIcmL1Routes(world: World, tokenTtlMs: number, now: () => number) {
  const tokens = new PageTokens(tokenTtlMs, now);

  function icmTimeseries(query: URLSearchParams) {
    const check = new Checker(query);
    check.allowOnly(ICM_TIMESERIES_PARAMS);
    const start = check.int('startTimestamp', 0);
    const end = check.int('endTimestamp', 0);
    const interval: Interval =
      check.oneOf('timeInterval', ['hour', 'day', 'week', 'month'] as const) ?? 'day';
    const pageSize = check.int('pageSize', 1, MAX_PAGE_SIZE) ?? 100;
    const { messages, groupOf } = icmSelection(world, query, check);
    if (start !== undefined && end !== undefined && start > end)
      check.add('startTimestamp must be less than or equal to endTimestamp');
    check.done();
    // One point per (bucket, group), newest bucket first, groups in id order.
    const points = new Map<
      string,
      { value: number; timestamp: number; srcBlockchainId: string; destBlockchainId: string }
    >();
    for (const m of messages) {
      if ((start !== undefined && m.timestamp < start) || (end !== undefined && m.timestamp > end))
        continue;
      const g = groupOf(m);
      const timestamp = bucketStart(m.timestamp, interval);
      const k = `${timestamp}|${g.srcBlockchainId}|${g.destBlockchainId}`;
      const p = points.get(k) ?? { value: 0, timestamp, ...g };
      p.value += 1;
      points.set(k, p);
    }
    const all = [...points.values()].sort(
      (a, b) =>
        b.timestamp - a.timestamp ||
        a.srcBlockchainId.localeCompare(b.srcBlockchainId) ||
        a.destBlockchainId.localeCompare(b.destBlockchainId),
    );
    const binding = `icm|${ICM_TIMESERIES_PARAMS.filter(
      (p) => p !== 'pageToken' && p !== 'pageSize',
    )
      .map((p) => query.get(p) ?? '')
      .join('|')}`;
    const token = query.get('pageToken');
    let offset = 0;
    if (token !== null) {
      try {
        offset = tokens.resume<number>(token, binding);
      } catch (e) {
        const messages = (e as { messages?: string | string[] }).messages;
        throw new MetricsError(
          400,
          Array.isArray(messages) ? messages : [String(messages ?? (e as Error).message)],
        );
      }
    }
    const results = all.slice(offset, offset + pageSize);
    const next =
      offset + pageSize < all.length ? tokens.issue(binding, offset + pageSize) : undefined;
    return next === undefined ? { results } : { nextPageToken: next, results };
  }

  function icmSummary(query: URLSearchParams) {
    const check = new Checker(query);
    check.allowOnly(ICM_SUMMARY_PARAMS);
    const { messages, groupOf } = icmSelection(world, query, check);
    check.done();
    const t = world.now;
    const since = (s: number) => messages.filter((m) => m.timestamp > t - s).length;
    const g = messages[0]
      ? groupOf(messages[0])
      : {
          srcBlockchainId: query.get('srcBlockchainId') ?? '',
          destBlockchainId: query.get('destBlockchainId') ?? '',
        };
    return {
      result: {
        lastHour: since(HOUR),
        lastDay: since(DAY),
        lastWeek: since(7 * DAY),
        lastMonth: since(30 * DAY),
        last90Days: since(90 * DAY),
        lastYear: since(365 * DAY),
        allTime: messages.length,
        ...g,
      },
    };
  }

  /** Daily fee series over a set of L1 validators, newest day first. */
  function feeSeries(
    vs: L1ValidatorRecord[],
    _query: URLSearchParams,
    kind: 'daily' | 'cumulative' | 'paying',
    check: Checker,
  ) {
    check.allowOnly(L1_METRIC_PARAMS);
    const start = check.int('startTimestamp', 0);
    const end = check.int('endTimestamp', 0);
    if (start !== undefined && end !== undefined && start > end)
      check.add('startTimestamp must be less than or equal to endTimestamp');
    check.done();
    const live = vs.filter((v) => v.active);
    if (live.length === 0) return { results: [] };
    const first = bucketStart(Math.min(...live.map((v) => v.creationTimestamp)), 'day');
    const out: { value: number; timestamp: number }[] = [];
    let cumulative = 0;
    for (let day = first; day <= bucketStart(world.now, 'day'); day += DAY) {
      const paying = live.filter((v) => v.creationTimestamp < day + DAY).length;
      cumulative += paying * L1_DAILY_FEE;
      if (
        (start !== undefined && day < bucketStart(start, 'day')) ||
        (end !== undefined && day > end)
      )
        continue;
      out.push({
        timestamp: day,
        value: kind === 'daily' ? paying * L1_DAILY_FEE : kind === 'paying' ? paying : cumulative,
      });
    }
    return { results: out.reverse() };
  }

  const mainnetL1 = () => world.primary.mainnet.l1Validators;
  const metricOf = <T extends string>(check: Checker, raw: string, values: readonly T[]) =>
    check.value('metric', raw, values);

  return {
    icmTimeseries,
    icmSummary,
    total(metricRaw: string, query: URLSearchParams) {
      const check = new Checker(query);
      const m = metricOf(check, metricRaw, [
        'totalCumulativeFeesDaily',
        'totalValidatorFeesDaily',
        'totalPayingValidatorsDaily',
      ] as const);
      return feeSeries(
        mainnetL1(),
        query,
        m === 'totalCumulativeFeesDaily'
          ? 'cumulative'
          : m === 'totalPayingValidatorsDaily'
            ? 'paying'
            : 'daily',
        check,
      );
    },
    byValidation(id: string, metricRaw: string, query: URLSearchParams) {
      const check = new Checker(query);
      const m = metricOf(check, metricRaw, [
        'validationCumulativeFeesDaily',
        'validationFeesDaily',
      ] as const);
      if (!isCb58Id(id)) check.add('l1ValidationId must be a valid CB58-encoded validation ID');
      return feeSeries(
        mainnetL1().filter((v) => v.validationId === id),
        query,
        m === 'validationCumulativeFeesDaily' ? 'cumulative' : 'daily',
        check,
      );
    },
    byNode(nodeId: string, metricRaw: string, query: URLSearchParams) {
      const check = new Checker(query);
      const m = metricOf(check, metricRaw, [
        'perNodeCumulativeFeesPaid',
        'perNodeDailyFeesPaid',
      ] as const);
      if (!/^NodeID-[1-9A-HJ-NP-Za-km-z]{20,60}$/.test(nodeId))
        check.add("nodeId must be a valid node ID in format 'NodeID-HASH'");
      return feeSeries(
        mainnetL1().filter((v) => v.nodeId === nodeId),
        query,
        m === 'perNodeCumulativeFeesPaid' ? 'cumulative' : 'daily',
        check,
      );
    },
    bySubnet(subnetId: string, metricRaw: string, query: URLSearchParams) {
      const check = new Checker(query);
      const m = metricOf(check, metricRaw, [
        'perSubnetDailyFeesPaid',
        'perSubnetCumulativeFeesPaid',
        'perSubnetPayingValidators',
      ] as const);
      if (!isCb58Id(subnetId)) check.add('subnetId must be a valid CB58-encoded subnet ID');
      const kind =
        m === 'perSubnetCumulativeFeesPaid'
          ? 'cumulative'
          : m === 'perSubnetPayingValidators'
            ? 'paying'
            : 'daily';
      return feeSeries(
        mainnetL1().filter((v) => v.subnetId === subnetId),
        query,
        kind,
        check,
      );
    },
  };
}
