import { z } from 'zod';
/**
 * Contracts of the Metrics API (a.k.a. Popsicle) v2 chain routes, from the real spec
 * (`metrics-api.openapi.json`). The seed's `/v1/avg_tps/{chainId}` is gone from the live API;
 * its data is `GET /v2/chains/{chainId}/metrics/avgTps`.
 */
import {
  CHAIN_METRICS,
  type ChainMetric,
  ROLLING_WINDOW_METRICS,
  type RollingWindowMetric,
} from '../../spec/metrics-api.js';
import { float } from './primary.js';

export { CHAIN_METRICS, type ChainMetric, ROLLING_WINDOW_METRICS, type RollingWindowMetric };

export const TIME_INTERVALS = ['hour', 'day', 'week', 'month'] as const;
export type TimeInterval = (typeof TIME_INTERVALS)[number];

/** Metrics prefixed cumulative, max or avg are aggregated per day only (the spec's `timeInterval` note). */
export const dayOnly = (metric: ChainMetric): boolean => /^(cumulative|max|avg)/.test(metric);

export const metricsValue = z.object({ value: float, timestamp: z.number().int() });
export type MetricsValue = z.infer<typeof metricsValue>;

/** A page of a Metrics API series: `results` of `value`. */
export const metricsPage = <T extends z.ZodType>(value: T) =>
  z.object({ results: z.array(value), nextPageToken: z.string().optional() });
export const metricsApiResponse = metricsPage(metricsValue);

const windowValue = float.optional();
export const rollingWindowValues = z.object({
  lastHour: windowValue,
  lastDay: windowValue,
  lastWeek: windowValue,
  lastMonth: windowValue,
  last90Days: windowValue,
  lastYear: windowValue,
  allTime: windowValue,
});
export type RollingWindowValues = z.infer<typeof rollingWindowValues>;

export const rollingWindowResponse = z.object({ result: rollingWindowValues });
