import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { generate } from '@graphql-codegen/cli';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPersistedOperations, readOperationFile } from '../../src/edge/persisted-files.js';
import { createTestGateway, type TestGateway, useSimulator } from '../support/gateway.js';
import { simGet } from '../support/sim.js';

/**
 * The frontend's own persisted operations (issue 45, item 4): PERSISTED_OPERATIONS_FILE takes the manifests
 * the real tools write from examples/ — GraphQL Codegen's client preset (`persisted-documents.json`) and
 * Relay's compiler (its persisted queries map) — and with PERSISTED_OPERATIONS=only runs their operations
 * (by `extensions.persistedQuery.sha256Hash`, `documentId` or Relay's `doc_id`) and refuses a free query
 * and an unknown id; a changed file is picked up without a restart.
 */
const ROOT = join(import.meta.dirname, '../..');
const C = '43114';
const dir = mkdtempSync(join(tmpdir(), 'persisted-'));
let sim: RunningSimulator;
let codegen: Record<string, string>;
let relay: Record<string, string>;
useSimulator({}, (s) => {
  sim = s;
});

beforeAll(async () => {
  // GraphQL Codegen's client preset with persisted documents, over the examples' operations.
  await generate(
    {
      schema: join(ROOT, 'schema/schema.graphql'),
      documents: [join(ROOT, 'examples/operations/**/*.graphql')],
      generates: {
        [join(dir, 'codegen/')]: {
          preset: 'client',
          presetConfig: { persistedDocuments: true, fragmentMasking: false },
        },
      },
      silent: true,
    },
    true,
  );
  codegen = JSON.parse(readFileSync(join(dir, 'codegen/persisted-documents.json'), 'utf8'));
  // Relay's compiler with persistConfig, over the examples' Relay project.
  cpSync(join(ROOT, 'examples/relay/src'), join(dir, 'relay/src'), { recursive: true });
  rmSync(join(dir, 'relay/src/__generated__'), { recursive: true, force: true });
  // The compiler fills the map it is given (it must exist).
  writeFileSync(join(dir, 'relay/persisted_queries.json'), '{}');
  writeFileSync(
    join(dir, 'relay/relay.config.json'),
    JSON.stringify({
      src: './src',
      schema: join(ROOT, 'schema/schema.graphql'),
      language: 'typescript',
      eagerEsModules: true,
      persistConfig: { file: './persisted_queries.json', algorithm: 'SHA256' },
    }),
  );
  const r = spawnSync(join(ROOT, 'node_modules/.bin/relay-compiler'), [], {
    cwd: join(dir, 'relay'),
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
  relay = JSON.parse(readFileSync(join(dir, 'relay/persisted_queries.json'), 'utf8'));
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const idOf = (manifest: Record<string, string>, operation: string) => {
  const hit = Object.entries(manifest).find(([, text]) => text.includes(`query ${operation}`));
  if (!hit) throw new Error(`no ${operation} in ${Object.keys(manifest).length} operations`);
  return hit[0];
};
type Body = { data?: any; errors?: { message: string; extensions?: { code?: string } }[] };
const post = async (g: TestGateway, body: unknown): Promise<Body> =>
  (await (
    await g.yoga.fetch('http://gateway.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    })
  ).json()) as Body;

describe('PERSISTED_OPERATIONS_FILE', () => {
  it('the tools write what the reader takes: every id maps to a document that parses', () => {
    expect(Object.keys(codegen).length).toBeGreaterThanOrEqual(3);
    expect(Object.keys(relay).length).toBeGreaterThanOrEqual(3);
    expect(readOperationFile(join(dir, 'codegen/persisted-documents.json')).size).toBe(
      Object.keys(codegen).length,
    );
    expect(readOperationFile(join(dir, 'relay/persisted_queries.json')).size).toBe(
      Object.keys(relay).length,
    );
  });

  it("runs the frontend's operations with PERSISTED_OPERATIONS=only, by hash, documentId or doc_id; refuses a free query and an unknown id", async () => {
    const files = [
      join(dir, 'codegen/persisted-documents.json'),
      join(dir, 'relay/persisted_queries.json'),
    ];
    const g = createTestGateway(sim, {
      env: { PERSISTED_OPERATIONS: 'only', PERSISTED_OPERATIONS_FILE: files.join(',') },
    });
    try {
      const { blocks } = await simGet(sim.dataApiUrl, `/v1/chains/${C}/blocks`, { pageSize: 1 });
      const id = String(Number(blocks[0].blockNumber) - 2);
      const variables = { chainId: C, id };
      const hash = idOf(codegen, 'ExampleBlockWithTransactions');
      const byHash = await post(g, {
        variables,
        extensions: { persistedQuery: { version: 1, sha256Hash: hash } },
      });
      expect(byHash.errors).toBeUndefined();
      expect(byHash.data.block.number).toBe(id);
      const byDocumentId = await post(g, { documentId: hash, variables });
      expect(byDocumentId.errors).toBeUndefined();
      expect(byDocumentId.data.block.number).toBe(id);

      const relayId = idOf(relay, 'fragmentsChainLatestBlocksQuery');
      const byDocId = await post(g, { doc_id: relayId, variables: { chainId: C } });
      expect(byDocId.errors).toBeUndefined();
      expect(byDocId.data.chain.blocks.edges).toHaveLength(5);

      const free = await post(g, { query: `{ chain(id: "${C}") { name } }` });
      expect(free.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_ONLY');
      const unknown = await post(g, { documentId: 'f'.repeat(64), variables });
      expect(unknown.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_NOT_FOUND');
      // The repository's own manifest is not the allowlist any more: only the frontend's files are.
      const own = JSON.parse(readFileSync(join(ROOT, 'schema/persisted-operations.json'), 'utf8'));
      const ownOnly = Object.keys(own).find((k) => !(k in codegen) && !(k in relay))!;
      const refused = await post(g, { documentId: ownOnly });
      expect(refused.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    } finally {
      await g.close();
    }
  });

  it('a changed file is reloaded without a restart; a broken one keeps what was loaded', async () => {
    const file = join(dir, 'live-manifest.json');
    const first = `query One { chains { chainId } }`;
    const second = `query Two { chains { chainName } }`;
    writeFileSync(file, JSON.stringify({ one: first }));
    const outcomes: unknown[] = [];
    const ops = createPersistedOperations({
      files: [file],
      watchMs: 50,
      onReload: (o) => outcomes.push(o),
    });
    try {
      expect(ops.get('one')).toBe(first);
      expect(ops.get('two')).toBeUndefined();
      writeFileSync(file, JSON.stringify({ one: first, two: second }));
      await vi.waitFor(() => expect(ops.get('two')).toBe(second), { timeout: 5000, interval: 20 });
      expect(ops.names()).toEqual(new Set(['One', 'Two']));
      // A file that does not parse: the operations loaded stay, and the outcome says why.
      writeFileSync(file, '{ "three": "query {" }');
      await vi.waitFor(() => expect(outcomes.at(-1)).toMatchObject({ ok: false }), {
        timeout: 5000,
        interval: 20,
      });
      expect(ops.get('two')).toBe(second);
      expect(() => ops.reload()).toThrow(/does not parse/);
    } finally {
      ops.close();
    }
  });

  it("reads Apollo's persisted query manifest too", () => {
    const file = join(dir, 'apollo.json');
    writeFileSync(
      file,
      JSON.stringify({
        format: 'apollo-persisted-query-manifest',
        version: 1,
        operations: [
          {
            id: 'abc123',
            name: 'Chains',
            type: 'query',
            body: 'query Chains { chains { chainId } }',
          },
        ],
      }),
    );
    expect([...readOperationFile(file)]).toEqual([
      ['abc123', 'query Chains { chains { chainId } }'],
    ]);
  });
});
