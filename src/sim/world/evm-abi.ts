/** ABI encoding of the simulated transactions' calls: 32-byte words after a selector. */

const word = (v: string | bigint): string =>
  typeof v === 'bigint'
    ? v.toString(16).padStart(64, '0')
    : v.toLowerCase().replace(/^0x/, '').padStart(64, '0');
export const abi = (selector: string, ...args: (string | bigint)[]) =>
  selector + args.map(word).join('');

/** The methods generated transactions call: selector and signature. */
export const M = {
  transfer: { hash: '0xa9059cbb', name: 'transfer(address,uint256)' },
  nft: { hash: '0x42842e0e', name: 'safeTransferFrom(address,address,uint256)' },
  multi: { hash: '0xf242432a', name: 'safeTransferFrom(address,address,uint256,uint256,bytes)' },
  swap: { hash: '0x7ff36ab5', name: 'swapExactAVAXForTokens(uint256,address[],address,uint256)' },
  airdrop: { hash: '0x0b66f3f5', name: 'multisendToken(address,address[],uint256[])' },
  icmSend: {
    hash: '0x62448850',
    name: 'sendCrossChainMessage((bytes32,address,(address,uint256),uint256,address[],bytes))',
  },
  icmReceive: { hash: '0xccb5f809', name: 'receiveCrossChainMessage(uint32,address)' },
};
