import type { GatewayContext } from '../context.js';

/** An EVM chain id as a decimal string (no leading zero, at most 20 digits): the one pattern. */
const EVM_CHAIN_ID = /^[1-9]\d{0,19}$/;

/** Whether a string is spelled as an EVM chain id (a blockchain id, CB58, is not). */
export const isEvmChainId = (s: string): boolean => EVM_CHAIN_ID.test(s);

/**
 * The EVM chain id of a checked `chainId` argument: a blockchain id (CB58), which the Data API accepts in
 * its place, is looked up once (chain info: slow-moving, cached). Entities, global ids and cache keys are
 * always made with the EVM chain id, so both spellings name the same block, transaction or address.
 */
export async function evmChainIdOf(chainId: string, ctx: GatewayContext): Promise<string> {
  return isEvmChainId(chainId) ? chainId : (await ctx.loaders.evm.chain.load(chainId)).chainId;
}
