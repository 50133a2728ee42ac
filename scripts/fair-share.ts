import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { parseArgs } from 'node:util';

/**
 * `npm run fair-share [-- --seconds 60 --clients 20]`: issue 42's must-show for the plan's fair share.
 * On loopback, each its own process: the simulator charging the unauthenticated plan (6,000 CU a minute,
 * 1,200,000 a day, 429 past either), a private redis-server when the binary is installed, and a
 * production gateway (NODE_ENV=production, its defaults, TRUSTED_PROXIES=loopback) in front. Then, for
 * `--seconds` (default 300):
 * - one abuser, one address, sending the costliest shipped operations (from the persisted manifest,
 *   schema/persisted-operations.json: AddressTransactionsFull and its like at the largest `first` the
 *   cost limit admits, 150-290 (each transaction's full form priced, about 20 CU an item: at 300 and
 *   above they are refused as too complex before any charge), on the busiest addresses) with 4 requests
 *   always in flight;
 * - `--clients` ordinary clients (default 20), each its own address (x-forwarded-for from the trusted
 *   loopback proxy), each asking for a block or the chain's latest blocks every 2-6 s.
 * It prints the ordinary clients' answered share, the 429s the simulator answered, and the abuser's
 * refusals with their `retryAfterSec`; it exits 1 when a target is missed: ordinary >= 99 % answered,
 * 0 upstream 429s, the abuser refused with retryAfterSec.
 */
const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '300' },
    clients: { type: 'string', default: '20' },
  },
});
const SECONDS = Number(values.seconds);
const CLIENTS = Number(values.clients);
if (!(SECONDS > 0) || !(CLIENTS > 0)) throw new Error('--seconds and --clients must be positive');

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const children: ChildProcess[] = [];
const start = (cmd: string, args: string[], env: Record<string, string>) => {
  const child = spawn(cmd, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  return child;
};
const stopAll = () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
};
process.on('exit', stopAll);
process.on('SIGINT', () => process.exit(130));

async function waitUp(url: string, what: string) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`${what} did not come up at ${url}`);
    await sleep(100);
  }
}

// The simulator, charging the unauthenticated plan.
const simPort = await freePort();
const sim = `http://127.0.0.1:${simPort}`;
start(process.execPath, ['--import', 'tsx', 'packages/simulator/src/main.ts'], {
  SIM_PORT: String(simPort),
  SIM_CU_PER_MINUTE: '6000',
  SIM_CU_PER_DAY: '1200000',
});
await waitUp(`${sim}/_sim/health`, 'the simulator');

// A private Redis, as production runs with one (the governor's ledger is its Lua script then).
let redisUrl: string | undefined;
if (spawnSync('redis-server', ['--version']).status === 0) {
  const port = await freePort();
  start(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {},
  );
  redisUrl = `redis://127.0.0.1:${port}`;
}

// The gateway, production settings (its own defaults: the governor at the unauthenticated plan).
const gwPort = await freePort();
const gateway = `http://127.0.0.1:${gwPort}`;
start(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
  NODE_ENV: 'production',
  PORT: String(gwPort),
  HOST: '127.0.0.1',
  CURSOR_SECRET: 'fair-share-cursor-secret-0123456789',
  DATA_API_URL: `${sim}/data-api`,
  METRICS_API_URL: `${sim}/metrics-api`,
  NODE_RPC_URL: `${sim}/node`,
  TRUSTED_PROXIES: 'loopback',
  LOG_LEVEL: 'error',
  ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
});
await waitUp(`${gateway}/health`, 'the gateway');

const fixtures = (await (await fetch(`${sim}/_sim/fixtures`)).json()) as {
  busyAddresses: string[];
};
const head = Number(
  (
    (await (await fetch(`${sim}/data-api/v1/chains/43114/blocks?pageSize=1`)).json()) as {
      blocks: { blockNumber: string }[];
    }
  ).blocks[0]!.blockNumber,
);

// The abuser's operations: the costliest the manifest ships.
const manifest = JSON.parse(readFileSync('schema/persisted-operations.json', 'utf8')) as Record<
  string,
  string
>;
const shipped = (name: string) => {
  const text = Object.values(manifest).find((q) => q.includes(`query ${name}(`));
  if (!text) throw new Error(`${name} is not in the persisted manifest`);
  return text;
};
const ABUSE = ['AddressTransactionsFull', 'AddressTransactionBlockParents', 'ChainBlocks'].map(
  (name) => ({ name, query: shipped(name) }),
);
const BLOCK = shipped('Block');
const LATEST = '{ chain(id: "43114") { blocks(first: 5) { edges { node { number } } } } }';

/** One message per error code seen, to say what a code meant. */
const samples: Record<string, string> = {};
interface Answer {
  ok: boolean;
  codes: string[];
  retryAfter?: number;
  budget?: string;
}
async function ask(ip: string, query: string, variables?: unknown): Promise<Answer> {
  try {
    const res = await fetch(`${gateway}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await res.json()) as {
      errors?: {
        message?: string;
        extensions?: { code?: string; retryAfterSec?: number; budget?: string };
      }[];
    };
    const errors = body.errors ?? [];
    for (const e of errors) samples[e.extensions?.code ?? 'NO_CODE'] ??= e.message ?? '';
    const limited = errors.find((e) => e.extensions?.code === 'RATE_LIMITED');
    return {
      ok: res.ok && errors.length === 0,
      codes: errors.map((e) => e.extensions?.code ?? 'NO_CODE'),
      retryAfter: limited?.extensions?.retryAfterSec,
      budget: limited?.extensions?.budget,
    };
  } catch (e) {
    return { ok: false, codes: [`FETCH:${(e as Error).message}`] };
  }
}

const until = Date.now() + SECONDS * 1000;
const pick = <T>(xs: readonly T[]) => xs[Math.floor(Math.random() * xs.length)]!;

const ordinary = {
  sent: 0,
  answered: 0,
  codes: {} as Record<string, number>,
  budgets: {} as Record<string, number>,
};
async function client(i: number) {
  const ip = `198.51.100.${i + 1}`;
  await sleep(Math.random() * 3_000);
  while (Date.now() < until) {
    const r =
      Math.random() < 0.2
        ? await ask(ip, LATEST)
        : await ask(ip, BLOCK, {
            chainId: '43114',
            id: String(head - Math.floor(Math.random() * 200)),
          });
    ordinary.sent++;
    if (r.ok) ordinary.answered++;
    for (const c of r.codes) ordinary.codes[c] = (ordinary.codes[c] ?? 0) + 1;
    if (r.budget) ordinary.budgets[r.budget] = (ordinary.budgets[r.budget] ?? 0) + 1;
    await sleep(2_000 + Math.random() * 4_000);
  }
}

const abuser = {
  sent: 0,
  answered: 0,
  refused: 0,
  retryAfter: [] as number[],
  budgets: {} as Record<string, number>,
  codes: {} as Record<string, number>,
};
async function abuse() {
  while (Date.now() < until) {
    const op = pick(ABUSE);
    const first = 150 + Math.floor(Math.random() * 141);
    const variables =
      op.name === 'ChainBlocks'
        ? { chainId: '43114', first, txFirst: 10 + Math.floor(Math.random() * 20) }
        : { chainId: '43114', address: pick(fixtures.busyAddresses), first };
    const r = await ask('203.0.113.66', op.query, variables);
    abuser.sent++;
    if (r.ok) abuser.answered++;
    for (const c of r.codes) abuser.codes[c] = (abuser.codes[c] ?? 0) + 1;
    if (r.retryAfter !== undefined) {
      abuser.refused++;
      abuser.retryAfter.push(r.retryAfter);
      abuser.budgets[r.budget ?? '?'] = (abuser.budgets[r.budget ?? '?'] ?? 0) + 1;
    }
  }
}

console.log(
  `fair-share: ${SECONDS} s, 1 abuser (4 in flight) and ${CLIENTS} ordinary clients; simulator ${sim} (6,000 CU/min), gateway ${gateway}${redisUrl ? `, Redis ${redisUrl}` : ''}`,
);
await Promise.all([
  ...Array.from({ length: CLIENTS }, (_, i) => client(i)),
  ...Array.from({ length: 4 }, () => abuse()),
]);

const charges = (await (await fetch(`${sim}/_sim/charges`)).json()) as {
  spentCu: number;
  refused: number;
};
const health = await (await fetch(`${gateway}/health`)).json();
const pct = ordinary.sent ? (100 * ordinary.answered) / ordinary.sent : 0;
const ra = abuser.retryAfter;
console.log(
  JSON.stringify(
    {
      ordinary: {
        sent: ordinary.sent,
        answered: ordinary.answered,
        answeredPct: Number(pct.toFixed(2)),
        errorCodes: ordinary.codes,
        refusedBy: ordinary.budgets,
      },
      upstream: {
        spentCu: charges.spentCu,
        cuPerMinute: Math.round(charges.spentCu / (SECONDS / 60)),
        status429: charges.refused,
      },
      abuser: {
        sent: abuser.sent,
        answered: abuser.answered,
        refusedWithRetryAfter: abuser.refused,
        budgets: abuser.budgets,
        retryAfterSec: ra.length
          ? // A reduce, not a spread: a refused abuser collects hundreds of thousands of them.
            {
              min: ra.reduce((a, b) => Math.min(a, b)),
              max: ra.reduce((a, b) => Math.max(a, b)),
              last: ra.at(-1),
            }
          : null,
        errorCodes: abuser.codes,
      },
      health,
      samples,
    },
    null,
    2,
  ),
);
const misses = [
  pct < 99 && `ordinary clients answered ${pct.toFixed(2)} % (< 99 %)`,
  charges.refused > 0 && `${charges.refused} upstream 429s`,
  abuser.refused === 0 && 'the abuser was never refused with retryAfterSec',
].filter(Boolean);
console.log(
  misses.length ? `fair-share: MISSED: ${misses.join('; ')}` : 'fair-share: all targets met',
);
stopAll();
process.exit(misses.length ? 1 : 0);
