import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type RunningSimulator, startSimulator } from '@avalanche-gateway/simulator';
import { buildSchema, type GraphQLSchema, Kind, parse, validate } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devGatewayEnv, devSimulatorOptions } from '../../scripts/dev-wiring.js';
import {
  type DocExample,
  docFiles,
  extractDocExamples,
  namesInCode,
} from '../../scripts/doc-examples.js';
import { loadConfig } from '../../src/config.js';
import { SETTINGS } from '../../src/config-settings.js';
import { createGateway, type Gateway } from '../../src/gateway.js';
import { type RunningHttpServer, startHttpServer } from '../../src/http/server.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { eventually } from '../support/live-clients.js';

/**
 * Docs that cannot drift. Every ```graphql block and every `curl` command of README.md and docs/*.md runs
 * against a gateway wired to the simulator as `npm run dev` wires it (scripts/dev-wiring.ts, a block every
 * 300 ms here): a query or mutation must answer data without an error; a curl command is run by curl itself
 * (its host `localhost:4000` pointed at this gateway) and must answer data without an error, a subscription
 * over SSE (`curl -N`) its first event with data. A ```graphql subscription is checked by validation
 * against the printed schema only (its addresses need not have activity in the simulator). And every
 * UPPER_SNAKE name in the docs' code is a setting of SETTINGS (an older name only beside its new one),
 * a name the repository's tools read, a code, a constant or an allowed non-setting.
 */
const ROOT = join(import.meta.dirname, '../..');

let sim: RunningSimulator;
let gateway: Gateway;
let http: RunningHttpServer;
let port: number;
let schema: GraphQLSchema;

beforeAll(async () => {
  sim = await startSimulator(devSimulatorOptions({ SIM_PORT: '0', SIM_BLOCK_INTERVAL_MS: '300' }));
  gateway = createGateway(loadConfig(devGatewayEnv(sim, { LOG_LEVEL: 'silent' })));
  await gateway.ready();
  http = await startHttpServer({
    gateway,
    port: 0,
    host: '127.0.0.1',
    graceMs: 100,
    ws: { clientOf: gateway.wsClientOf },
    logger: createLogger({ level: 'silent' }),
  });
  port = http.port;
  // The printed schema (`npm test` checks it is the code's: schema:check).
  schema = buildSchema(readFileSync(join(ROOT, 'schema/schema.graphql'), 'utf8'));
  await eventually(() => expect(gateway.live?.headTag('43114')).toBeDefined(), 15_000);
}, 60_000);

afterAll(async () => {
  await http?.shutdown('test over');
  await sim?.close();
});

/** What is wrong with an answer: its errors, or no data. */
function answerProblems(answer: unknown): string[] {
  const a = answer as {
    data?: unknown;
    errors?: { message: string; extensions?: { code?: string } }[];
  };
  if (a?.errors?.length)
    return a.errors.map((e) => `${e.extensions?.code ?? 'error'}: ${e.message}`);
  if (a?.data === undefined || a.data === null) return [`no data: ${JSON.stringify(answer)}`];
  return [];
}

/** Runs curl itself on the doc's command, pointed at this gateway; a streaming one until its first event. */
function runCurl(command: string): Promise<{ stdout: string; code: number | null }> {
  const local = command.replace(/\b(?:localhost|127\.0\.0\.1):4000\b/g, `127.0.0.1:${port}`);
  const streaming = /\s-N\b|text\/event-stream/.test(command);
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', `${local} --max-time 20`], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      // The first event with data is enough.
      if (streaming && /^data: *\{"(data|errors)"/m.test(stdout)) child.kill('SIGTERM');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ stdout, code }));
  });
}

/** What is wrong with one example of a doc (nothing: []). */
async function problemsOf(ex: DocExample): Promise<string[]> {
  if (ex.kind === 'graphql') {
    let doc: ReturnType<typeof parse>;
    try {
      doc = parse(ex.text);
    } catch (e) {
      return [`does not parse: ${(e as Error).message}`];
    }
    const invalid = validate(schema, doc).map((e) => e.message);
    if (invalid.length > 0) return invalid;
    const ops = doc.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
    // Subscriptions: validation only (above).
    if (ops.every((o) => o.operation === 'subscription')) return [];
    const res = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query: ex.text }),
    });
    return answerProblems(await res.json());
  }
  if (ex.query !== undefined) {
    try {
      const invalid = validate(schema, parse(ex.query)).map((e) => e.message);
      if (invalid.length > 0) return invalid;
    } catch (e) {
      return [`does not parse: ${(e as Error).message}`];
    }
  }
  const { stdout, code } = await runCurl(ex.text);
  if (/\s-N\b|text\/event-stream/.test(ex.text)) {
    const first = /^data: *(\{.*\})$/m.exec(stdout)?.[1];
    if (!first) return [`no event within 20 s (curl exit ${code}): ${stdout.slice(0, 300)}`];
    return answerProblems(JSON.parse(first));
  }
  try {
    return answerProblems(JSON.parse(stdout));
  } catch {
    return [`not a JSON answer (curl exit ${code}): ${stdout.slice(0, 300)}`];
  }
}

const examples = docFiles(ROOT).flatMap(([file, text]) => extractDocExamples(text, file));

describe('the docs’ operations and commands run against the simulator', () => {
  it('finds the README’s curl commands (a query and an SSE subscription) and the docs’ GraphQL', () => {
    const readme = examples.filter((e) => e.file === 'README.md' && e.kind === 'curl');
    expect(readme.length).toBeGreaterThanOrEqual(2);
    expect(readme.every((e) => e.query !== undefined)).toBe(true);
    expect(examples.some((e) => e.kind === 'graphql')).toBe(true);
  });

  it.each(examples.map((e) => [`${e.file}:${e.line} ${e.kind}`, e] as const))(
    '%s',
    async (_, ex) => {
      expect(await problemsOf(ex)).toEqual([]);
    },
    40_000,
  );

  it('a planted stale field fails, in a graphql block and in a curl command', async () => {
    const planted = [
      '# A doc',
      '```graphql',
      'query { chain(id: "43114") { name blockz(first: 1) { edges { node { number } } } } }',
      '```',
      '```sh',
      `curl -s localhost:4000/graphql -H 'content-type: application/json' \\`,
      `  -d '{"query":"{ chain(id: \\"43114\\") { nameGone } }"}'`,
      '```',
    ].join('\n');
    const found = extractDocExamples(planted, 'planted.md');
    expect(found.map((e) => [e.kind, e.line])).toEqual([
      ['graphql', 2],
      ['curl', 6],
    ]);
    expect(found[1]!.query).toBe('{ chain(id: "43114") { nameGone } }');
    const [block, curl] = await Promise.all(found.map(problemsOf));
    expect(block!.join()).toMatch(/Cannot query field "blockz" on type "Chain"/);
    expect(curl!.join()).toMatch(/Cannot query field "nameGone"/);
    // The same command with a field that exists answers: the failure above is the field's.
    const fixed = found[1]!.text.replace('nameGone', 'name');
    expect(
      await problemsOf(extractDocExamples(planted.replace('nameGone', 'name'), 'p.md')[1]!),
    ).toEqual([]);
    expect(fixed).toContain('{ name }');
  }, 40_000);
});

/** Files of the repository's own code (not node_modules, not generated). */
function sources(dir: string): string[] {
  const out: string[] = [];
  for (const f of readdirSync(join(ROOT, dir))) {
    if (f === 'node_modules' || f === '__generated__' || f === 'peer') continue;
    const p = join(dir, f);
    if (statSync(join(ROOT, p)).isDirectory()) out.push(...sources(p));
    else if (/\.(ts|mjs|js)$/.test(f)) out.push(p);
  }
  return out;
}

/** Not settings, and never read by our code: Node's own variable, and graphql-js's / Yoga's error codes. */
const NOT_SETTINGS = new Set([
  'NODE_OPTIONS',
  'GRAPHQL_PARSE_FAILED',
  'OPERATION_RESOLUTION_FAILURE',
]);

/** The older names of settings (their doc says so), to the current one. */
const OLDER_NAMES = new Map(
  Object.entries(SETTINGS).flatMap(([name, s]) => {
    const m = /older name of ([A-Z][A-Z0-9_]+)/.exec(s.doc);
    return m ? [[name, m[1]!] as const] : [];
  }),
);

function knownNames(): Set<string> {
  const known = new Set<string>([...Object.keys(SETTINGS), ...NOT_SETTINGS]);
  // Read from the environment anywhere (the simulator, scripts, benches, tests' knobs).
  for (const f of ['src', 'packages/simulator/src', 'scripts', 'bench', 'examples', 'test'].flatMap(
    sources,
  ))
    for (const m of readFileSync(join(ROOT, f), 'utf8').matchAll(/\benv\.([A-Z][A-Z0-9_]+)/g))
      known.add(m[1]!);
  for (const f of [
    'src',
    'packages/simulator/src',
    'scripts',
    'bench',
    'examples',
    'test/support',
  ].flatMap(sources)) {
    const text = readFileSync(join(ROOT, f), 'utf8');
    // Quoted (codes, reasons, env names passed to a reader), or a constant.
    for (const m of text.matchAll(/['"`]([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)['"`]/g)) known.add(m[1]!);
    for (const m of text.matchAll(/\bconst ([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\b/g)) known.add(m[1]!);
  }
  // The schema's enum values.
  for (const m of readFileSync(join(ROOT, 'schema/schema.graphql'), 'utf8').matchAll(
    /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g,
  ))
    known.add(m[0]);
  return known;
}

/** Names in a doc that are neither settings nor anything else the code knows, and older names used alone. */
function staleNames(markdown: string, known: Set<string>): string[] {
  const out: string[] = [];
  for (const { name, line, text } of namesInCode(markdown)) {
    const newer = OLDER_NAMES.get(name);
    if (newer !== undefined && !text.includes(newer))
      out.push(`line ${line}: ${name} is the older name of ${newer}`);
    else if (!known.has(name)) out.push(`line ${line}: ${name} is no setting`);
  }
  return out;
}

describe('the settings the docs name exist', () => {
  const known = knownNames();

  it.each(docFiles(ROOT).map(([f, t]) => [f, t] as const))('%s', (_, text) => {
    expect(staleNames(text, known)).toEqual([]);
  });

  it('a planted unknown setting and an older name used alone fail', () => {
    expect(OLDER_NAMES.get('CLIENT_BUDGET_PER_MINUTE')).toBe('CLIENT_CU_PER_MINUTE');
    expect(
      staleNames(
        [
          'Set `CLIENT_BUDGET_PER_MINUTE` to 0.',
          '`CLIENT_CU_PER_MINUTE` (older name `CLIENT_BUDGET_PER_MINUTE`)',
          '```sh',
          'GONE_SETTING_MS=5 npm start',
          '```',
        ].join('\n'),
        known,
      ),
    ).toEqual([
      'line 1: CLIENT_BUDGET_PER_MINUTE is the older name of CLIENT_CU_PER_MINUTE',
      'line 4: GONE_SETTING_MS is no setting',
    ]);
  });
});
