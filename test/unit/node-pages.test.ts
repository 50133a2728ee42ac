import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../../src/upstream/errors.js';
import { createEvmStateClient } from '../../src/upstream/evm-state.js';
import { createHttpClient } from '../../src/upstream/http.js';
import { createNodeRpcClient } from '../../src/upstream/node-rpc.js';
import type { Transport } from '../../src/upstream/transport.js';
import { configuredHttpLimits } from '../support/http-limits.js';

/**
 * Lists the node pages itself, as `upstream/` turns them into pages (issue 13: paging over node
 * cursors lives there, not in the schema): `getUTXOs` continues from the node's `endIndex`, logs go in
 * block windows. A token the gateway did not make is refused like an expired one (400), before any call.
 */
function fakeNode(answer: (method: string, params: Record<string, unknown>) => unknown) {
  const sent: { method: string; params: Record<string, unknown> }[] = [];
  const transport: Transport = async (req) => {
    type Call = { id: number; method: string; params: unknown };
    const parsed = JSON.parse(req.body ?? '') as Call | Call[];
    const answerOne = (call: Call) => {
      const params = (Array.isArray(call.params) ? call.params[0] : call.params) as Record<
        string,
        unknown
      >;
      sent.push({ method: call.method, params });
      return { jsonrpc: '2.0', id: call.id, result: answer(call.method, params) };
    };
    const out = Array.isArray(parsed) ? parsed.map(answerOne) : answerOne(parsed);
    return { status: 200, header: () => undefined, body: JSON.stringify(out) };
  };
  const http = createHttpClient({
    ...configuredHttpLimits(),
    name: 'node',
    baseUrl: 'http://node',
    retries: 0,
    transport,
  });
  return { http, sent };
}

const utxoPage = (n: number) => ({
  numFetched: String(n),
  utxos: Array.from({ length: n }, (_, i) => `0x${i}`),
  endIndex: { address: 'X-avax1end', utxo: `utxo-${n}` },
  encoding: 'hex',
});

describe('getUTXOs pages', () => {
  const q = { addresses: ['X-avax1a'], limit: 2 };

  it('a full page continues from the node endIndex; a short page is the last', async () => {
    const { http, sent } = fakeNode((_m, p) => utxoPage(p.startIndex ? 1 : 2));
    const c = createNodeRpcClient({ name: 'n', url: 'http://node' }, http);
    const first = await c.xChain.utxos(q, null).run();
    expect(first.items).toEqual(['0x0', '0x1']);
    expect(first.nextPageToken).not.toBeNull();
    const second = await c.xChain.utxos(q, first.nextPageToken).run();
    expect(sent[1]!.params.startIndex).toEqual({ address: 'X-avax1end', utxo: 'utxo-2' });
    expect(second).toEqual({ items: ['0x0'], nextPageToken: null });
  });

  it('a token that is no node position is refused (400) before any call', () => {
    const { http, sent } = fakeNode(() => utxoPage(0));
    const c = createNodeRpcClient({ name: 'n', url: 'http://node' }, http);
    for (const token of ['not json', '{"address":1}', '{"address":"a","utxo":"b","x":1}']) {
      let err: unknown;
      try {
        c.xChain.utxos(q, token);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(UpstreamError);
      expect((err as UpstreamError).status).toBe(400);
    }
    expect(sent).toEqual([]);
  });
});

describe('eth_getLogs in block windows', () => {
  const client = (answer: () => unknown) => {
    const node = fakeNode(answer);
    return {
      ...node,
      c: createEvmStateClient({
        node: 'n',
        url: 'http://node',
        path: '/ext/bc/C/rpc',
        http: node.http,
      }),
    };
  };
  const range = { from: 100, to: 104, window: 2 };

  it('walks the range window by window; the window reaching `to` is the last', async () => {
    const { c, sent } = client(() => []);
    let token: string | null = null;
    const windows: unknown[] = [];
    for (let i = 0; i < 5; i++) {
      const page = await c.logsPage({}, range, token).run();
      windows.push([sent.at(-1)!.params.fromBlock, sent.at(-1)!.params.toBlock]);
      token = page.nextPageToken;
      if (token === null) break;
    }
    expect(windows).toEqual([
      ['0x64', '0x65'],
      ['0x66', '0x67'],
      ['0x68', '0x68'],
    ]);
  });

  it('pages of ranges with other ends are cached apart; a token outside the range is refused', () => {
    const { c, sent } = client(() => []);
    expect(c.logsPage({}, range, null).variant).not.toBe(
      c.logsPage({}, { ...range, to: 200 }, null).variant,
    );
    for (const token of ['99', '105', 'abc', '1e3']) {
      expect(() => c.logsPage({}, range, token)).toThrow(UpstreamError);
    }
    expect(sent).toEqual([]);
  });
});
