/**
 * Enumerations of the Metrics API's OpenAPI document, written once for the gateway and the
 * simulator (see `data-api.ts` in this folder).
 */

/** The per-block metrics: both enumerations list them, in this order. */
const BLOCK_METRICS = [
  'gasUsed',
  'txCount',
  'avgGps',
  'maxGps',
  'avgTps',
  'maxTps',
  'avgGasPrice',
  'maxGasPrice',
  'feesPaid',
] as const;

/** `ChainMetric`: the per-chain time series. */
export const CHAIN_METRICS = [
  'activeAddresses',
  'activeSenders',
  'cumulativeTxCount',
  'cumulativeAddresses',
  'cumulativeContracts',
  'cumulativeDeployers',
  'contracts',
  'deployers',
  ...BLOCK_METRICS,
] as const;
export type ChainMetric = (typeof CHAIN_METRICS)[number];

/** `ChainRollingWindowMetric`: the metrics with rolling-window summaries. */
export const ROLLING_WINDOW_METRICS = [
  ...BLOCK_METRICS,
  'contracts',
  'deployers',
  'activeAddresses',
  'activeSenders',
] as const;
export type RollingWindowMetric = (typeof ROLLING_WINDOW_METRICS)[number];
