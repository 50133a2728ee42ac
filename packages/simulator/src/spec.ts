import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The upstreams' enumerations the simulator answers by, its own copy from the published OpenAPI specs
 * (the Data API's `SortByOption`, the Metrics API's `ChainMetric` and `ChainRollingWindowMetric`), and
 * where those specs are read. The gateway keeps its own (src/spec/); test/unit/price-tables.test.ts
 * compares them, and the contract suite checks both against the specs themselves. Imports nothing.
 */

/** `SortByOption`: how the network's validator list may be sorted. */
export const VALIDATOR_SORT_BY = [
  'blockIndex',
  'delegationCapacity',
  'timeRemaining',
  'delegationFee',
  'uptimePerformance',
] as const;
export type ValidatorSortBy = (typeof VALIDATOR_SORT_BY)[number];

/** `CurrencyCode`: the currencies prices are asked and answered in. */
export const CURRENCY_CODES = [
  'usd',
  'eur',
  'aud',
  'cad',
  'chf',
  'clp',
  'cny',
  'czk',
  'dkk',
  'gbp',
  'hkd',
  'huf',
  'jpy',
  'nzd',
] as const;
export type CurrencyCode = (typeof CURRENCY_CODES)[number];

/** `PChainTransactionType`: the P-Chain transaction types. */
export const P_CHAIN_TX_TYPES = [
  'AddValidatorTx',
  'AddSubnetValidatorTx',
  'AddDelegatorTx',
  'CreateChainTx',
  'CreateSubnetTx',
  'ImportTx',
  'ExportTx',
  'AdvanceTimeTx',
  'RewardValidatorTx',
  'RemoveSubnetValidatorTx',
  'TransformSubnetTx',
  'AddPermissionlessValidatorTx',
  'AddPermissionlessDelegatorTx',
  'BaseTx',
  'TransferSubnetOwnershipTx',
  'ConvertSubnetToL1Tx',
  'RegisterL1ValidatorTx',
  'SetL1ValidatorWeightTx',
  'DisableL1ValidatorTx',
  'IncreaseL1ValidatorBalanceTx',
  'UNKNOWN',
] as const;

/** `PrimaryNetworkTxType`: the list routes' `txTypes` filter, the P-Chain types plus two X-Chain ones. */
export const PRIMARY_NETWORK_TX_TYPES = [
  ...P_CHAIN_TX_TYPES,
  'CreateAssetTx',
  'OperationTx',
] as const;
export type PrimaryNetworkTxType = (typeof PRIMARY_NETWORK_TX_TYPES)[number];

/** The per-block series (the Metrics API's block-level `ChainMetric` values). */
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

/**
 * Where the upstreams' published specs are read (the spec variation): `SPEC_DIR` when set; else the
 * shared reference checkout beside the repository, when there is one; else the folder the repository's
 * `npm run spec:fetch` downloads them into.
 */
const SHARED_SPEC_DIR = fileURLToPath(new URL('../../../../shared/upstream/', import.meta.url));
const FETCHED_SPEC_DIR = fileURLToPath(new URL('../../../spec/upstream/', import.meta.url));

/** The spec folder, with a trailing slash, from the configured value (`SPEC_DIR`) if any. */
export function resolveSpecDir(configured?: string): string {
  if (configured) return `${resolve(configured)}/`;
  return existsSync(SHARED_SPEC_DIR) ? SHARED_SPEC_DIR : FETCHED_SPEC_DIR;
}
