/**
 * Enumerations of the Data API's OpenAPI document (`data-api.openapi.json`), written once: the
 * gateway's contracts and schema enums and the simulator's parameter checks both take them from
 * here. This folder holds the specs' vocabulary only (no behaviour), so the simulator, which never
 * imports gateway code, may import it too.
 */

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

/** `SortByOption`: how the network's validator list may be sorted. */
export const VALIDATOR_SORT_BY = [
  'blockIndex',
  'delegationCapacity',
  'timeRemaining',
  'delegationFee',
  'uptimePerformance',
] as const;
export type ValidatorSortBy = (typeof VALIDATOR_SORT_BY)[number];
