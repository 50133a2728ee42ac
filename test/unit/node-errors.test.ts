import { describe, expect, it } from 'vitest';
import { interpretNodeError, NODE_ERRORS } from '../../src/upstream/node-errors.js';

/**
 * One case per row of NODE_ERRORS, each fed the real text: from ../shared/upstream/examples/node/errors/
 * (written from avalanchego's and gorilla/rpc's sources) or, where the shared examples have none, from the
 * simulator's node (packages/simulator/src/node-rpc/), which words its errors as avalanchego does.
 */
const EX = '../shared/upstream/examples/node/errors';
const cases: { row: RegExp; code: number; message: string; from: string; want: string }[] = [
  // not found
  {
    row: /\bnot found\b/i,
    code: -32000,
    message: "asset 'FOO' not found",
    from: 'packages/simulator/src/node-rpc/avm.ts',
    want: 'not_found',
  },
  {
    row: /could(?:n't| not) find/i,
    code: -32000,
    message: 'could not find tx 2QouvFWkgr5xfYrmm4rznFnWqHAkXsGpsizqHJbEmJ1vFSpSYn',
    from: 'packages/simulator/src/node-rpc/avax.ts',
    want: 'not_found',
  },
  {
    row: /there is no (?:chain|ID) with alias/i,
    code: -32000,
    message: "there is no chain with alias/ID 'Z'",
    from: `${EX}/gorilla.application-error.json`,
    want: 'not_found',
  },
  // bad input
  {
    row: /couldn't unmarshal an argument/i,
    code: -32000,
    message:
      "couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls",
    from: `${EX}/gorilla.invalid-params.json`,
    want: 'bad_input',
  },
  {
    row: /couldn't parse/i,
    code: -32000,
    message: 'couldn\'t parse address "X-avax1xyz": invalid checksum',
    from: 'packages/simulator/src/node-rpc/addresses.ts',
    want: 'bad_input',
  },
  {
    row: /problem (?:parsing|decoding)/i,
    code: -32000,
    message: 'problem decoding transaction: unknown codec version',
    from: 'packages/simulator/src/node-rpc/avm.ts',
    want: 'bad_input',
  },
  {
    row: /invalid input checksum/i,
    code: -32000,
    message: 'invalid input checksum',
    from: 'packages/simulator/src/node-rpc/codec.ts',
    want: 'bad_input',
  },
  {
    row: /smaller than the checksum size/i,
    code: -32000,
    message: 'input string is smaller than the checksum size',
    from: 'packages/simulator/src/node-rpc/codec.ts',
    want: 'bad_input',
  },
  {
    row: /expected \d+ bytes/i,
    code: -32000,
    message: 'expected 32 bytes but got 4',
    from: 'packages/simulator/src/node-rpc/admin.ts',
    want: 'bad_input',
  },
  {
    row: /no (?:addresses|source chain) provided/i,
    code: -32000,
    message: 'no addresses provided',
    from: 'packages/simulator/src/node-rpc/utxo-service.ts',
    want: 'bad_input',
  },
  {
    row: /exceeds maximum/i,
    code: -32000,
    message: 'number of addresses given, 1025, exceeds maximum, 1024',
    from: 'packages/simulator/src/node-rpc/utxo-service.ts',
    want: 'bad_input',
  },
  {
    row: /too long/i,
    code: -32000,
    message: 'alias length is too long',
    from: 'packages/simulator/src/node-rpc/admin.ts',
    want: 'bad_input',
  },
  {
    row: /need to specify/i,
    code: -32000,
    message: 'need to specify either displayLevel or logLevel',
    from: 'packages/simulator/src/node-rpc/admin.ts',
    want: 'bad_input',
  },
  {
    row: /failed to parse log level/i,
    code: -32000,
    message: 'failed to parse log level: unknown level: LOUD ',
    from: 'packages/simulator/src/node-rpc/admin.ts',
    want: 'bad_input',
  },
  {
    row: /unsupported encoding/i,
    code: -32000,
    message: 'unsupported encoding in method',
    from: 'packages/simulator/src/node-rpc/avm.ts',
    want: 'bad_input',
  },
  {
    row: /nil transaction ID/i,
    code: -32000,
    message: 'nil transaction ID',
    from: 'packages/simulator/src/node-rpc/avm.ts',
    want: 'bad_input',
  },
  {
    row: /missing 0x prefix/i,
    code: -32000,
    message: 'missing 0x prefix to hex encoding',
    from: 'packages/simulator/src/node-rpc/codec.ts',
    want: 'bad_input',
  },
  {
    row: /mismatched chainIDs/i,
    code: -32000,
    message: 'mismatched chainIDs: expected "X" but got "P"',
    from: 'packages/simulator/src/node-rpc/addresses.ts',
    want: 'bad_input',
  },
  // refused
  {
    row: /can't find (?:method|service)/i,
    code: -32000,
    message: 'rpc: can\'t find method "info.GetFoo"',
    from: `${EX}/gorilla.method-not-found.json`,
    want: 'refused',
  },
  {
    row: /does not exist\/is not available/i,
    code: -32601,
    message: 'the method eth_foo does not exist/is not available',
    from: `${EX}/geth.method-not-found.json`,
    want: 'refused',
  },
];

describe('interpretNodeError: one case per table row', () => {
  it('covers every row', () => {
    expect(cases.map((c) => String(c.row))).toEqual(NODE_ERRORS.map((r) => String(r.match)));
  });
  for (const c of cases) {
    it(`${c.row} ← ${c.from}`, () => {
      const row = NODE_ERRORS.find((r) => String(r.match) === String(c.row));
      expect(row?.match.test(c.message)).toBe(true);
      expect(interpretNodeError(c.code, c.message)).toBe(c.want);
    });
  }
});

describe('interpretNodeError: codes and messages outside the table', () => {
  it('reads -32601 as refused and -32602 as bad input whatever the text', () => {
    // ../shared/upstream/examples/node/errors/geth.invalid-params-missing.json
    expect(interpretNodeError(-32602, 'missing value for required argument 0')).toBe('bad_input');
    expect(interpretNodeError(-32601, 'anything')).toBe('refused');
  });
  it('knows nothing of other messages', () => {
    // gorilla.service-not-found.json is a refusal; gorilla.uppercase-method.json and parse errors are not ours
    expect(interpretNodeError(-32000, 'rpc: can\'t find service "foo.GetBar"')).toBe('refused');
    expect(
      interpretNodeError(-32000, 'method must start with a non-uppercase letter'),
    ).toBeUndefined();
    expect(
      interpretNodeError(-32700, "invalid character 'o' in literal null (expecting 'u')"),
    ).toBeUndefined();
    expect(interpretNodeError(3, 'execution reverted: <reason>')).toBeUndefined();
  });
  it('applies -32000 rows only under -32000', () => {
    expect(interpretNodeError(-32603, 'not found')).toBeUndefined();
  });
});
