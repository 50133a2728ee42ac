import { addressArg } from './evm-args.js';
import type { EthArg } from './geth.js';

/**
 * go-ethereum argument types of the EVM state methods, with geth's error texts: call objects
 * (ethapi.TransactionArgs), hex bytes, storage keys, math.HexOrDecimal64, and pass-through values.
 */
export const dataArg = (what: string): EthArg<string> => ({
  decode(raw) {
    if (typeof raw !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(raw))
      throw new Error(`json: cannot unmarshal invalid hex string into Go value of type ${what}`);
    return raw.toLowerCase();
  },
});
export const callArg: EthArg<{ to?: string; from?: string; data: string; value: bigint }> = {
  decode(raw) {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
      throw new Error(
        'json: cannot unmarshal non-object into Go value of type ethapi.TransactionArgs',
      );
    const o = raw as Record<string, unknown>;
    const input = o.input ?? o.data ?? '0x';
    return {
      to: o.to == null ? undefined : addressArg.decode(o.to),
      from: o.from == null ? undefined : addressArg.decode(o.from),
      data: dataArg('hexutil.Bytes').decode(input),
      value: o.value == null ? 0n : BigInt(String(o.value)),
    };
  },
};
const pad32 = (h: string) => `0x${h.replace(/^0x/, '').padStart(64, '0')}`;

export const keysArg: EthArg<string[]> = {
  decode(raw) {
    if (!Array.isArray(raw))
      throw new Error('json: cannot unmarshal non-array into Go value of type []string');
    return raw.map((k) => {
      if (typeof k !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(k))
        throw new Error(`unable to decode storage key: hex string invalid`);
      return pad32(k.toLowerCase());
    });
  },
};
export const anyArg: EthArg<unknown> = { decode: (raw) => raw, optional: true };
export const quantityArg: EthArg<number> = {
  decode(raw) {
    const n =
      typeof raw === 'number'
        ? raw
        : typeof raw === 'string' && /^0x[0-9a-fA-F]+$/.test(raw)
          ? Number(BigInt(raw))
          : NaN;
    if (!Number.isSafeInteger(n) || n < 0)
      throw new Error('json: cannot unmarshal into Go value of type math.HexOrDecimal64');
    return n;
  },
};
