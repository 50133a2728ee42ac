import { CU, ENTITY_LOOKUP } from './cost-declarations.js';

/**
 * What `_entities` pays per representation, by its `__typename`: the look-up its `resolveReference`
 * makes (src/schema/federation*.ts). `_entities` is no field of the subgraph SDL (a router never prices
 * it as a client's field), so this is declared here; a type not listed is priced ENTITY_LOOKUP.
 */
export const ENTITY_LOOKUPS: Record<string, number> = {
  Address: 0,
  Chain: CU.free,
  Block: CU.small,
  Transaction: CU.medium,
  Erc20Contract: CU.medium,
  Erc721Contract: CU.medium,
  Erc1155Contract: CU.medium,
  UnknownContract: CU.medium,
  ActiveValidator: CU.large,
  CompletedValidator: CU.large,
  PendingValidator: CU.large,
  RemovedValidator: CU.large,
  L1Validator: ENTITY_LOOKUP,
  PendingIcmMessage: CU.medium,
  DeliveredIcmMessage: CU.medium,
  DeliveredSourceNotIndexedIcmMessage: CU.medium,
  Subnet: CU.large,
  Blockchain: CU.large,
};
