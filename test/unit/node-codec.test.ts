import { existsSync, readFileSync } from 'node:fs';
import { bech32, cb58, isBech32 } from '@avalanche-gateway/simulator/world/encoding.js';
import { toChecksumAddress } from '@avalanche-gateway/simulator/world/keccak.js';
import { describe, expect, it } from 'vitest';
import {
  bech32Decode,
  bech32Encode,
  cb58Decode,
  cb58Encode,
  decodeUtxo,
  hexBytes,
  isCb58Id,
} from '../../src/upstream/schemas/node-codec.js';
import { NODE_EXAMPLES, specPath } from '../support/specs.js';

/**
 * The node codecs (on @scure/base and @noble/hashes) against the real node's own answers in
 * SPEC_DIR's examples/node (test/support/specs.ts; skipped only where that folder is absent).
 */
const EXAMPLE = specPath(`${NODE_EXAMPLES}avm/avm.getUTXOs.json`);
const example = existsSync(EXAMPLE) ? JSON.parse(readFileSync(EXAMPLE, 'utf8')) : undefined;

describe.skipIf(!example)('node codecs on the real node examples', () => {
  it('decodes every hex UTXO of avm.getUTXOs (checksum, ids, owners) and re-encodes its ids', () => {
    for (const hex of example.response.result.utxos as string[]) {
      const u = decodeUtxo(hex)!;
      expect(u).toBeDefined();
      expect(isCb58Id(u.txId) && isCb58Id(u.assetId) && isCb58Id(u.id)).toBe(true);
      expect(cb58Encode(cb58Decode(u.txId)!)).toBe(u.txId);
      for (const h of u.transfer!.addressHex) {
        const back = bech32Decode(bech32Encode('avax', Buffer.from(h, 'hex')))!;
        expect(Buffer.from(back.bytes).toString('hex')).toBe(h);
      }
    }
    // The example's UTXOs belong to another wallet than the one asked for (as the node answered);
    // this owner's address was computed by the hand-written codec these libraries replaced.
    const first = decodeUtxo(example.response.result.utxos[0])!;
    expect(bech32Encode('avax', Buffer.from(first.transfer!.addressHex[0]!, 'hex'))).toBe(
      'avax13w5cm2awhnvrq4nenpqul0zk0k93puskh7xtzh',
    );
  });

  it('round-trips the example bech32 addresses; gateway and simulator encoders agree', () => {
    for (const a of example.request.params.addresses as string[]) {
      const { hrp, bytes } = bech32Decode(a.slice(2))!;
      expect(hrp).toBe('avax');
      expect(`X-${bech32Encode(hrp, bytes)}`).toBe(a);
      expect(`X-${bech32(hrp, bytes)}`).toBe(a);
      expect(isBech32(a.slice(2), 'avax')).toBe(true);
      expect(isBech32(a.slice(2), 'fuji')).toBe(false);
    }
  });
});

describe('node codecs refuse what is not theirs', () => {
  const id = cb58Encode(new Uint8Array(32).fill(7));

  it('CB58: gateway and simulator agree; a changed character or a bad alphabet is refused', () => {
    expect(cb58(new Uint8Array(32).fill(7))).toBe(id);
    const flipped = `${id.slice(0, -1)}${id.endsWith('1') ? '2' : '1'}`;
    expect(cb58Decode(flipped)).toBeUndefined();
    expect(cb58Decode('0OIl')).toBeUndefined();
    expect(isCb58Id(cb58Encode(new Uint8Array(20)))).toBe(false);
  });

  it('bech32: mixed case, a bad checksum and over-long strings are refused', () => {
    const a = bech32Encode('avax', new Uint8Array(20).fill(1));
    expect(bech32Decode(a.toUpperCase())?.hrp).toBe('avax');
    expect(bech32Decode(`${a.slice(0, 6).toUpperCase()}${a.slice(6)}`)).toBeUndefined();
    expect(bech32Decode(`${a.slice(0, -1)}${a.endsWith('q') ? 'p' : 'q'}`)).toBeUndefined();
    expect(bech32Decode(`avax1${'q'.repeat(100)}`)).toBeUndefined();
  });

  it('hex: a wrong checksum is refused', () => {
    expect(hexBytes('0x00000000000000')).toBeUndefined();
  });

  it("EIP-55 checksums match the EIP's own vectors (keccak from @noble/hashes)", () => {
    for (const a of [
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    ]) {
      expect(toChecksumAddress(a.toLowerCase())).toBe(a);
    }
  });
});
