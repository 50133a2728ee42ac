import {
  decodeErrorResult,
  decodeFunctionResult,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  hexToString,
} from 'viem';

/**
 * ABI encoding for the typed ERC-20 reads and for revert data, with viem's audited codec (no
 * hand-made byte slicing). `symbol` falls back to the bytes32 form old tokens (MKR, SAI…) return.
 */
export const erc20Calls = {
  balanceOf: (holder: string) =>
    encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [holder as Hex] }),
  symbol: () => encodeFunctionData({ abi: erc20Abi, functionName: 'symbol' }),
  decimals: () => encodeFunctionData({ abi: erc20Abi, functionName: 'decimals' }),
};

export const erc20Results = {
  balanceOf: (data: string) =>
    decodeFunctionResult({
      abi: erc20Abi,
      functionName: 'balanceOf',
      data: data as Hex,
    }).toString(),
  decimals: (data: string) =>
    Number(decodeFunctionResult({ abi: erc20Abi, functionName: 'decimals', data: data as Hex })),
  symbol: (data: string): string => {
    try {
      return decodeFunctionResult({ abi: erc20Abi, functionName: 'symbol', data: data as Hex });
    } catch (e) {
      if (data.length !== 66) throw e;
      return hexToString(data as Hex, { size: 32 }).replace(/\0+$/, '');
    }
  },
};

/**
 * `Error(string)` reason or `Panic(uint256)` code of revert data; undefined for custom errors or
 * none.
 */
export function revertReasonOf(data: string): string | undefined {
  if (data.length < 10) return undefined;
  try {
    const r = decodeErrorResult({ abi: [], data: data as Hex });
    const arg = r.args?.[0];
    return r.errorName === 'Panic'
      ? `Panic(${String(arg)})`
      : typeof arg === 'string'
        ? arg
        : undefined;
  } catch {
    return undefined;
  }
}
