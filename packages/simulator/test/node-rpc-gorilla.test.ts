import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../src/index.js';

/** The node-style (gorilla) endpoints' protocol semantics, checked over HTTP. */

let sim: RunningSimulator;
let noAdmin: RunningSimulator;

beforeAll(async () => {
  [sim, noAdmin] = await Promise.all([
    startSimulator({ port: 0, adminEnabled: true }),
    startSimulator({ port: 0, adminEnabled: false }),
  ]);
});
afterAll(async () => {
  await Promise.all([sim.close(), noAdmin.close()]);
});

async function post(
  path: string,
  body: unknown,
  headers: Record<string, string> = { 'content-type': 'application/json' },
  base = sim,
) {
  const res = await fetch(`${base.nodeUrl}${path}`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  const type = res.headers.get('content-type');
  return {
    status: res.status,
    type,
    text,
    json: type?.includes('json') && text ? (JSON.parse(text) as any) : undefined,
  };
}
const call = (path: string, method: string, params?: unknown, id: unknown = 1) =>
  post(path, { jsonrpc: '2.0', id, method, params });

describe('gorilla endpoints', () => {
  it('answers a call as {jsonrpc, result, id}', async () => {
    const r = await call('/ext/info', 'info.getNodeID', {});
    expect(r.status).toBe(200);
    expect(Object.keys(r.json)).toEqual(['jsonrpc', 'result', 'id']);
    expect(r.json.result.nodeID).toBe(sim.world.selfNodeId);
  });

  it('takes params as an object, as a one-element array, or not at all', async () => {
    for (const params of [{ chain: 'X' }, [{ chain: 'X' }]]) {
      expect((await call('/ext/info', 'info.isBootstrapped', params)).json.result).toEqual({
        isBootstrapped: true,
      });
    }
    expect((await call('/ext/info', 'info.getNetworkID')).json.result).toEqual({ networkID: '1' });
    expect((await call('/ext/info', 'info.getNetworkID', [])).json.result).toEqual({
      networkID: '1',
    });
  });

  it('answers -32000 with data null for application errors, bad params, unknown and upper-case methods', async () => {
    const cases: [string, string, unknown, string][] = [
      ['/ext/info', 'info.isBootstrapped', { chain: 'Z' }, "there is no chain with alias/ID 'Z'"],
      [
        '/ext/info',
        'info.isBootstrapped',
        { chain: 123 },
        "couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls",
      ],
      [
        '/ext/info',
        'info.isBootstrapped',
        ['X'],
        "couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls",
      ],
      ['/ext/info', 'getNodeID', {}, 'rpc: service/method request ill-formed: "getNodeID"'],
      ['/ext/info', 'info.getFoo', {}, 'rpc: can\'t find method "info.GetFoo"'],
      ['/ext/info', 'info.GetNodeID', {}, 'method must start with a non-uppercase letter'],
      ['/ext/bc/X', 'foo.getBar', {}, 'rpc: can\'t find service "foo.GetBar"'],
      ['/ext/bc/X', 'info.getNodeID', {}, 'rpc: can\'t find service "info.GetNodeID"'],
      ['/ext/bc/C/avax', 'avax.getUTXOs', { addresses: [] }, 'no addresses provided'],
    ];
    for (const [path, method, params, message] of cases) {
      const r = await call(path, method, params);
      expect(r.status).toBe(200);
      expect(r.json).toEqual({
        jsonrpc: '2.0',
        error: { code: -32000, message, data: null },
        id: 1,
      });
    }
  });

  it('answers -32700 for invalid JSON and for a batch, echoing the decoded request', async () => {
    const bad = await post('/ext/info', 'not json');
    expect(bad.status).toBe(200);
    expect(bad.json).toEqual({
      jsonrpc: '2.0',
      error: {
        code: -32700,
        message: "invalid character 'o' in literal null (expecting 'u')",
        data: { jsonrpc: '', method: '', params: null, id: null },
      },
      id: null,
    });
    const batch = await post('/ext/bc/X', [
      { jsonrpc: '2.0', id: 1, method: 'avm.getHeight', params: {} },
    ]);
    expect(batch.json.error.code).toBe(-32700);
    expect(batch.json.error.message).toBe(
      'json: cannot unmarshal array into Go value of type json2.serverRequest',
    );
    expect(batch.json.id).toBeNull();
    const empty = await post('/ext/info', '');
    expect(empty.json.error).toMatchObject({ code: -32700, message: 'EOF' });
  });

  it('answers -32600 for a jsonrpc version other than 2.0', async () => {
    const r = await post('/ext/info', {
      jsonrpc: '1.0',
      id: 1,
      method: 'info.getNodeID',
      params: {},
    });
    expect(r.json).toEqual({
      jsonrpc: '2.0',
      error: {
        code: -32600,
        message: 'jsonrpc must be 2.0',
        data: { jsonrpc: '1.0', method: 'info.getNodeID', params: {}, id: 1 },
      },
      id: 1,
    });
  });

  it('sends no body for a notification (no id or id null), even when it fails', async () => {
    for (const body of [
      { jsonrpc: '2.0', method: 'info.getNodeID', params: {} },
      { jsonrpc: '2.0', id: null, method: 'info.getNodeID', params: {} },
      { jsonrpc: '2.0', method: 'info.nope', params: {} },
    ]) {
      const r = await post('/ext/info', body);
      expect(r.status).toBe(200);
      expect(r.text).toBe('');
    }
  });

  it('echoes any id and matches field names case-insensitively like Go', async () => {
    expect((await call('/ext/info', 'info.getNetworkName', {}, 'abc')).json.id).toBe('abc');
    const r = await post('/ext/info', {
      JSONRPC: '2.0',
      ID: 7,
      Method: 'info.isBootstrapped',
      Params: { CHAIN: 'C' },
    });
    expect(r.json).toEqual({ jsonrpc: '2.0', result: { isBootstrapped: true }, id: 7 });
  });

  it('answers 405 plain text for non-POST and 415 without a JSON content type', async () => {
    const get = await fetch(`${sim.nodeUrl}/ext/info`);
    expect(get.status).toBe(405);
    expect(get.headers.get('content-type')).toContain('text/plain');
    expect(await get.text()).toBe('rpc: POST method required, received GET');
    const noType = await post('/ext/info', { jsonrpc: '2.0', id: 1, method: 'info.getNodeID' }, {});
    expect(noType.status).toBe(415);
    expect(noType.type).toContain('text/plain');
    const textType = await post(
      '/ext/info',
      { jsonrpc: '2.0', id: 1, method: 'info.getNodeID' },
      { 'content-type': 'text/plain' },
    );
    expect(textType.status).toBe(415);
    expect(textType.text).toBe('rpc: unrecognized Content-Type: text/plain');
    const charset = await post(
      '/ext/info',
      { jsonrpc: '2.0', id: 1, method: 'info.getNodeID' },
      { 'content-type': 'application/json; charset=utf-8' },
    );
    expect(charset.status).toBe(200);
  });

  it('serves the admin APIs only when enabled; otherwise the routes do not exist (404)', async () => {
    expect(
      (await call('/ext/admin', 'admin.getLoggerLevel', { loggerName: 'C' })).json.result,
    ).toEqual({
      loggerLevels: { C: { logLevel: 'INFO', displayLevel: 'INFO' } },
    });
    for (const path of ['/ext/admin', '/ext/bc/C/admin']) {
      const r = await post(
        path,
        { jsonrpc: '2.0', id: 1, method: 'admin.lockProfile', params: {} },
        undefined,
        noAdmin,
      );
      expect(r.status).toBe(404);
      expect(r.text).toBe('404 page not found\n');
    }
    expect(
      (
        await post('/ext/bc/C/admin', {
          jsonrpc: '2.0',
          id: 1,
          method: 'admin.setLogLevel',
          params: [{ level: 'debug' }],
        })
      ).json.result,
    ).toEqual({});
  });

  it('keeps admin state: profiler, logger levels, chain aliases and route aliases', async () => {
    expect((await call('/ext/admin', 'admin.startCPUProfiler', {})).json.result).toEqual({});
    expect((await call('/ext/admin', 'admin.startCPUProfiler', {})).json.error.message).toBe(
      'cpu profiler already running',
    );
    expect((await call('/ext/admin', 'admin.stopCPUProfiler', {})).json.result).toEqual({});
    expect((await call('/ext/admin', 'admin.stopCPUProfiler', {})).json.error.message).toBe(
      "cpu profiler doesn't exist",
    );
    expect(
      (await call('/ext/admin', 'admin.setLoggerLevel', { loggerName: 'X' })).json.error.message,
    ).toBe('need to specify either displayLevel or logLevel');
    expect(
      (await call('/ext/admin', 'admin.setLoggerLevel', { loggerName: 'X', logLevel: 'debug' }))
        .json.result.loggerLevels.X.logLevel,
    ).toBe('DEBUG');
    expect(
      (await call('/ext/admin', 'admin.getLoggerLevel', { loggerName: 'nope' })).json.error.message,
    ).toBe('logger with name "nope" not found');
    const xId = sim.world.networks.mainnet.xChainId;
    expect(
      (await call('/ext/admin', 'admin.aliasChain', { chain: 'X', alias: 'myX' })).json.result,
    ).toEqual({});
    expect(
      (await call('/ext/admin', 'admin.getChainAliases', { chain: xId })).json.result.aliases,
    ).toEqual(['X', 'avm', xId, 'myX']);
    expect(
      (await call('/ext/info', 'info.getBlockchainID', { alias: 'myX' })).json.result.blockchainID,
    ).toBe(xId);
    expect((await call('/ext/bc/myX', 'avm.getHeight', {})).json.result.height).toMatch(/^\d+$/);
    expect(
      (await call('/ext/admin', 'admin.alias', { endpoint: 'info', alias: 'myInfo' })).json.result,
    ).toEqual({});
    expect((await call('/ext/myInfo', 'info.getNetworkName', {})).json.result).toEqual({
      networkName: 'mainnet',
    });
    expect(
      (await call('/ext/admin', 'admin.alias', { endpoint: 'info', alias: 'myInfo' })).json.error
        .code,
    ).toBe(-32000);
  });

  it('serves health by GET (plain JSON) and by POST (JSON-RPC)', async () => {
    const get = await fetch(`${sim.nodeUrl}/ext/health`);
    expect(get.status).toBe(200);
    expect(((await get.json()) as any).healthy).toBe(true);
    const liveness = await fetch(`${sim.nodeUrl}/ext/health/liveness`);
    expect(await liveness.json()).toEqual({ checks: {}, healthy: true });
    for (const m of ['health.health', 'health.readiness', 'health.liveness'])
      expect((await call('/ext/health', m, {})).json.result.healthy).toBe(true);
  });

  it('serves chains by alias and id, and 404s unknown paths', async () => {
    const { xChainId, cChainId } = sim.world.networks.mainnet;
    expect((await call(`/ext/bc/${xChainId}`, 'avm.getHeight', {})).json.result.height).toMatch(
      /^\d+$/,
    );
    expect((await call('/ext/bc/avm', 'avm.getHeight', {})).json.result.height).toMatch(/^\d+$/);
    expect(
      (
        await post(`/ext/bc/${cChainId}/rpc`, {
          jsonrpc: '2.0',
          id: 1,
          method: 'eth_chainId',
          params: [],
        })
      ).json.result,
    ).toBe('0xa86a');
    expect((await post('/ext/nope', {})).status).toBe(404);
    expect((await post('/ext/info/', {})).status).toBe(404);
  });

  it('counts calls by route and by JSON-RPC method', async () => {
    sim.reset();
    await call('/ext/info', 'info.getNodeVersion', {});
    await call('/ext/info', 'info.getNodeVersion', {});
    const stats = sim.stats();
    expect(stats.byRoute['node POST /ext/info']).toBe(2);
    expect(
      Object.entries(stats.byRpcMethod).find(([k]) => k.includes('info.getNodeVersion'))?.[1],
    ).toBe(2);
  });
});
