import { L1_VALIDATOR_LOOKUP } from './cost-declarations.js';
import { data } from './cost-helpers.js';

/**
 * What `_entities` pays per representation, by its `__typename`: the price of the look-up its
 * `resolveReference` makes (src/schema/federation*.ts), from the price table. `_entities` is no field of
 * the subgraph SDL (a router never prices it as a client's field), so this is declared here; a type not
 * listed is priced as `_entities` declares (ENTITY_LOOKUP). A Map, never an object: a client's
 * `__typename` ("constructor", "__proto__"...) must not reach a prototype's members.
 */
const validator = data('getSingleValidatorDetails').weight;
const contract = data('getContractMetadata').weight;
const icmMessage = data('getIcmMessage').weight;

export const ENTITY_LOOKUPS: ReadonlyMap<string, number> = new Map(
  Object.entries({
    Address: 0,
    Chain: data('getChainInfo').weight,
    Block: data('getBlock').weight,
    Transaction: data('getTransaction').weight,
    Erc20Contract: contract,
    Erc721Contract: contract,
    Erc1155Contract: contract,
    UnknownContract: contract,
    ActiveValidator: validator,
    CompletedValidator: validator,
    PendingValidator: validator,
    RemovedValidator: validator,
    L1Validator: L1_VALIDATOR_LOOKUP.weight,
    PendingIcmMessage: icmMessage,
    DeliveredIcmMessage: icmMessage,
    DeliveredSourceNotIndexedIcmMessage: icmMessage,
    Subnet: data('getSubnetById').weight,
    Blockchain: data('getBlockchainById').weight,
  }),
);
