import type { Ctx } from './ctx.js';

/**
 * Subnets, blockchains, UTXOs and last activity by addresses (GET and the V2 POST with the
 * addresses in the body), chain ids of addresses and the AVAX supply. Every route refuses a query
 * parameter its operation does not declare (NestJS's `forbidNonWhitelisted` wording), so a client
 * sending a filter under the wrong name fails loudly instead of silently getting the unfiltered
 * list; the contract suite checks these lists against the spec's parameters.
 */
export const PRIMARY_NET_QUERY_PARAMS: Record<string, readonly string[]> = {
  listSubnets: ['pageToken', 'pageSize', 'sortOrder'],
  getSubnetById: [],
  listBlockchains: ['pageToken', 'pageSize', 'sortOrder'],
  getBlockchainById: [],
  getUtxosByAddresses: [
    'addresses',
    'pageToken',
    'pageSize',
    'assetId',
    'minUtxoAmount',
    'includeSpent',
    'sortBy',
    'sortOrder',
  ],
  getUtxosByAddressesV2: [
    'pageToken',
    'pageSize',
    'assetId',
    'minUtxoAmount',
    'includeSpent',
    'sortBy',
    'sortOrder',
  ],
  getLastActivityTimestampByAddresses: ['addresses'],
  getLastActivityTimestampByAddressesV2: [],
  getChainIdsForAddresses: ['addresses'],
  getAvaxSupply: [],
};

/** Collects a 400 for every query parameter `operationId` does not declare. */
export function only(ctx: Ctx, operationId: string): void {
  const allowed = PRIMARY_NET_QUERY_PARAMS[operationId]!;
  for (const name of new Set(ctx.req.query.keys()))
    if (!allowed.includes(name)) ctx.errors.push(`property ${name} should not exist`);
}
