import { createHash } from 'node:crypto';
import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import {
  base58Decode,
  bech32Decode,
  cb58Decode,
  parseCb58Id,
  parseHexBytes,
  parseNetwork,
  parseNodeId,
  parsePercent,
  parsePrimaryAddress,
  parsePrimaryAddresses,
  parseSubnetIdHexOrCb58,
  parseTimestampArg,
} from '../../src/schema/primary-inputs.js';

/** The encodings behind primary-network input checks: bech32 (BIP-173), base58, CB58 and node ids. */
const argumentOf = (f: () => unknown): unknown => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(GraphQLError);
    expect((e as GraphQLError).extensions.code).toBe('BAD_USER_INPUT');
    return (e as GraphQLError).extensions.argument;
  }
  throw new Error('expected a BAD_USER_INPUT');
};

const P_CHAIN_ID = '11111111111111111111111111111111LpoYY';
const X_CHAIN_MAINNET = '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM';
const ADDR = 'avax1qm2a25eytsrj235hxg6jc0mwk99tss64eqevsw';

describe('bech32 (BIP-173 test vectors)', () => {
  it.each([
    'A12UEL5L',
    'a12uel5l',
    'an83characterlonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1tt5tgs',
    'abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw',
    `11${'q'.repeat(82)}c8247j`,
    '?1ezyfcl',
  ])('%s is valid', (s) => {
    expect(bech32Decode(s)).toBeDefined();
  });

  it.each([
    ['pzry9x0s0muk', 'no separator'],
    ['1pzry9x0s0muk', 'empty prefix'],
    ['x1b4n0q5v', 'invalid data character'],
    ['li1dgmt3', 'checksum too short'],
    ['A1G7SGD8', 'checksum calculated with upper-case prefix'],
    ['10a06t8', 'empty prefix'],
    ['1qzzfhee', 'empty prefix'],
    ['A12uEL5L', 'mixed case'],
  ])('%s is invalid (%s)', (s) => {
    expect(bech32Decode(s)).toBeUndefined();
  });

  it('decodes an Avalanche address to its 20 bytes under the avax prefix', () => {
    const d = bech32Decode(ADDR)!;
    expect(d.hrp).toBe('avax');
    expect(d.bytes).toHaveLength(20);
  });
});

describe('base58 and CB58', () => {
  it('the P-Chain id is 32 zero bytes with a valid checksum', () => {
    expect(cb58Decode(P_CHAIN_ID)).toEqual(new Uint8Array(32));
  });

  it('leading 1s are leading zero bytes; the checksum is the last 4 bytes of sha256(payload)', () => {
    const all = base58Decode(X_CHAIN_MAINNET)!;
    const payload = all.subarray(0, -4);
    expect(Buffer.from(all.subarray(-4))).toEqual(
      createHash('sha256').update(payload).digest().subarray(-4),
    );
    expect(cb58Decode(X_CHAIN_MAINNET)).toEqual(payload);
    expect(base58Decode('111')).toEqual(new Uint8Array(3));
  });

  it('rejects a changed character, a character outside the alphabet, and too-short input', () => {
    expect(cb58Decode(`${X_CHAIN_MAINNET.slice(0, -1)}N`)).toBeUndefined();
    expect(base58Decode('0OIl')).toBeUndefined();
    expect(cb58Decode('1111')).toBeUndefined();
  });

  it('parseCb58Id wants 32 bytes; parseNodeId wants NodeID- and 20 bytes', () => {
    expect(parseCb58Id(` ${X_CHAIN_MAINNET} `, 'txHash')).toBe(X_CHAIN_MAINNET);
    expect(argumentOf(() => parseCb58Id(`${X_CHAIN_MAINNET.slice(0, -1)}N`, 'txHash'))).toBe(
      'txHash',
    );
    expect(parseNodeId('NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg')).toBe(
      'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg',
    );
    expect(parseNodeId('NodeID-111111111111111111116DBWJs')).toBe(
      'NodeID-111111111111111111116DBWJs',
    );
    expect(argumentOf(() => parseNodeId('NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lh'))).toBe(
      'nodeId',
    );
    expect(argumentOf(() => parseNodeId('7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg'))).toBe('nodeId');
    expect(argumentOf(() => parseNodeId(`NodeID-${P_CHAIN_ID}`, 'id'))).toBe('id');
  });

  it('a signing subnet id is CB58 or 32 bytes of hex', () => {
    expect(parseSubnetIdHexOrCb58(P_CHAIN_ID, 's')).toBe(P_CHAIN_ID);
    expect(parseSubnetIdHexOrCb58(`0x${'ab'.repeat(32)}`, 's')).toBe(`0x${'ab'.repeat(32)}`);
    expect(argumentOf(() => parseSubnetIdHexOrCb58('0xabcd', 's'))).toBe('s');
  });
});

describe('primary-network addresses', () => {
  it('accepts bare, P- and X- forms and normalizes them to lower-case bech32', () => {
    expect(parsePrimaryAddress(ADDR, 'mainnet')).toBe(ADDR);
    expect(parsePrimaryAddress(`P-${ADDR}`, 'mainnet')).toBe(ADDR);
    expect(parsePrimaryAddress(`X-${ADDR.toUpperCase()}`, 'mainnet')).toBe(ADDR);
    expect(parsePrimaryAddresses([ADDR, `P-${ADDR}`], 'mainnet')).toEqual([ADDR]);
  });

  it('rejects the other network’s prefix, a bad checksum, C- and too many addresses', () => {
    expect(argumentOf(() => parsePrimaryAddress(ADDR, 'fuji'))).toBe('addresses');
    expect(argumentOf(() => parsePrimaryAddress(`${ADDR.slice(0, -1)}x`, 'mainnet'))).toBe(
      'addresses',
    );
    expect(argumentOf(() => parsePrimaryAddress(`C-${ADDR}`, 'mainnet'))).toBe('addresses');
    expect(argumentOf(() => parsePrimaryAddresses(Array(65).fill(ADDR), 'mainnet'))).toBe(
      'addresses',
    );
  });
});

describe('networks, numbers and hex', () => {
  it('testnet is fuji; anything else is refused', () => {
    expect(parseNetwork('testnet')).toBe('fuji');
    expect(parseNetwork(' Mainnet ')).toBe('mainnet');
    expect(argumentOf(() => parseNetwork('devnet', 'name'))).toBe('name');
  });

  it('timestamps ≥ 0, percentages 0–100, hex bytes with an optional 0x', () => {
    expect(parseTimestampArg(0, 't')).toBe(0);
    expect(parseTimestampArg(null, 't')).toBeUndefined();
    expect(argumentOf(() => parseTimestampArg(-1, 't'))).toBe('t');
    expect(parsePercent(100, 'q')).toBe(100);
    expect(argumentOf(() => parsePercent(101, 'q'))).toBe('q');
    expect(argumentOf(() => parsePercent(50.5, 'q'))).toBe('q');
    expect(parseHexBytes('0xABcd', 'm')).toBe('0xABcd');
    expect(parseHexBytes('abcd', 'm')).toBe('abcd');
    for (const v of ['0x', 'abc', 'xyz', ''])
      expect(argumentOf(() => parseHexBytes(v, 'm'))).toBe('m');
  });
});
