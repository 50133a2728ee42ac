/** ABI encoding of the simulated transactions' calls: 32-byte words after a selector. */
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { keccak256 } from './keccak.js';

const word = (v: string | bigint): string =>
  typeof v === 'bigint'
    ? v.toString(16).padStart(64, '0')
    : v.toLowerCase().replace(/^0x/, '').padStart(64, '0');
export const abi = (selector: string, ...args: (string | bigint)[]) =>
  selector + args.map(word).join('');

/**
 * A method the generated transactions call: its signature, and its selector derived from it (the
 * first four bytes of the signature's Keccak-256), so the two cannot disagree.
 */
const method = (name: string) => ({
  hash: `0x${bytesToHex(keccak256(utf8ToBytes(name)).subarray(0, 4))}`,
  name,
});

/** The methods generated transactions call. */
export const M = {
  transfer: method('transfer(address,uint256)'),
  nft: method('safeTransferFrom(address,address,uint256)'),
  multi: method('safeTransferFrom(address,address,uint256,uint256,bytes)'),
  swap: method('swapExactAVAXForTokens(uint256,address[],address,uint256)'),
  airdrop: method('multisendToken(address,address[],uint256[])'),
  icmSend: method(
    'sendCrossChainMessage((bytes32,address,(address,uint256),uint256,address[],bytes))',
  ),
  icmReceive: method('receiveCrossChainMessage(uint32,address)'),
};
