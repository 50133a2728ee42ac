import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The peer of `npm run bench`: what a user would pick instead of this gateway — Hive Gateway serving
 * GraphQL Mesh's composition of the same Data API spec (`../shared/upstream/data-api.openapi.json`,
 * read in place), over the same simulator. It lives in `bench/peer/` with its own package.json and
 * lockfile (the `@graphql-tools/delegate` 12.2.1 override this registry needs), installed here on
 * first use, so `npm ci` stays lean and the peer never enters `npm test`.
 */
const here = dirname(fileURLToPath(import.meta.url));
const PEER = join(here, 'peer');
const SPEC = resolve(here, '../../shared/upstream/data-api.openapi.json');

/** The peer's answer to the bench question: the block and its first 5 transactions, two root fields. */
export const PEER_QUERY = `query Bench($c: String!, $id: String!) {
  getBlock(chainId: $c, blockId: $id) { ... on GetEvmBlockResponse { blockNumber blockHash blockTimestamp txCount gasUsed baseFee } }
  getTransactionsForBlock(chainId: $c, blockId: $id, pageSize: 5) { ... on ListNativeTransactionsResponse {
    transactions { txHash from { address } to { address } value gasUsed txStatus } } } }`;

export const peerAvailable = (): boolean => existsSync(SPEC);

/** Installs the peer (once), composes its supergraph over the simulator's Data API, returns its folder. */
export function preparePeer(dataApiUrl: string): string {
  if (!existsSync(join(PEER, 'node_modules', '.bin', 'hive-gateway')))
    execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: PEER, stdio: 'inherit' });
  const work = mkdtempSync(join(tmpdir(), 'bench-peer-'));
  // The spec as shipped does not compose: `genesisData.examples` of Blockchain/BlockchainInfo is an
  // object where OpenAPI 3.1 wants an array. The patched copy goes to a temporary folder only.
  const spec = JSON.parse(readFileSync(SPEC, 'utf8')) as unknown;
  wrapGenesisExamples(spec);
  writeFileSync(join(work, 'data-api.openapi.json'), JSON.stringify(spec));
  // The composition config must resolve the peer's packages: it sits in the peer's folder.
  const compose = join(PEER, '.compose');
  mkdirSync(compose, { recursive: true });
  writeFileSync(
    join(compose, 'mesh.config.ts'),
    `import { defineConfig } from '@graphql-mesh/compose-cli';
import { loadOpenAPISubgraph } from '@omnigraph/openapi';
export const composeConfig = defineConfig({
  subgraphs: [{ sourceHandler: loadOpenAPISubgraph('DataAPI', {
    source: ${JSON.stringify(join(work, 'data-api.openapi.json'))},
    endpoint: ${JSON.stringify(dataApiUrl)},
  }) }],
});
`,
  );
  execFileSync(
    join(PEER, 'node_modules', '.bin', 'mesh-compose'),
    ['-o', join(work, 'supergraph.graphql')],
    { cwd: compose, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  // Served from a folder without the composition config (else the gateway loads that tooling too);
  // its own config turns its response cache on when asked.
  writeFileSync(
    join(work, 'gateway.config.mjs'),
    `export const gatewayConfig = process.env.PEER_RESPONSE_CACHE === '1'
  ? { responseCaching: { session: () => null } }
  : {};
`,
  );
  return work;
}

function wrapGenesisExamples(o: unknown): void {
  if (Array.isArray(o)) for (const x of o) wrapGenesisExamples(x);
  else if (o && typeof o === 'object') {
    const rec = o as Record<string, unknown>;
    const g = rec.genesisData as { examples?: unknown } | undefined;
    if (g && typeof g === 'object' && g.examples && !Array.isArray(g.examples))
      g.examples = [g.examples];
    for (const v of Object.values(rec)) wrapGenesisExamples(v);
  }
}

const freePort = () =>
  new Promise<number>((res) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => res(port));
    });
  });

/** Starts Hive Gateway on the composed supergraph; resolves once it answers its health check. */
export async function startPeer(
  work: string,
  responseCache: boolean,
): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const bin = join(PEER, 'node_modules', '@graphql-hive', 'gateway', 'dist', 'bin.js');
  const child = spawn(
    process.execPath,
    [bin, 'supergraph', join(work, 'supergraph.graphql'), '--port', String(port)],
    {
      cwd: work,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PEER_RESPONSE_CACHE: responseCache ? '1' : '0',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const url = `http://127.0.0.1:${port}/graphql`;
  // A minute: on a loaded machine Hive Gateway's start-up (loading the supergraph) takes over 20 s.
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`the peer exited with ${child.exitCode}`);
    const ok = await fetch(`http://127.0.0.1:${port}/healthcheck`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { url, child };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGTERM');
  throw new Error('the peer did not become healthy in 60 s');
}
