import type { GatewayContext } from '../context.js';

const EVM_CHAIN_ID = /^[1-9]\d{0,19}$/;

/**
 * The EVM chain id of a checked `chainId` argument: a blockchain id (CB58), which the Data API accepts in
 * its place, is looked up once (chain info: slow-moving, cached). Entities, global ids and cache keys are
 * always made with the EVM chain id, so both spellings name the same block, transaction or address.
 */
export async function evmChainIdOf(chainId: string, ctx: GatewayContext): Promise<string> {
  return EVM_CHAIN_ID.test(chainId) ? chainId : (await ctx.loaders.evm.chain.load(chainId)).chainId;
}
