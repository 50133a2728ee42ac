import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../test/support/redis.js';
import { sleep } from './chaos-kit.js';
import { panelQueries } from './monitoring-dashboard.js';

/**
 * `npm run chaos -- --prometheus` (`npm run monitoring:prometheus` is `--short --prometheus`): a real
 * Prometheus (Debian's package, PROMETHEUS_BIN) scrapes every stage's three replicas every second, with
 * their METRICS_TOKEN, and evaluates deploy/monitoring/alerts.yml every second. The rules are loaded as
 * a test-time copy whose every `for:` is 1 s (the faults last seconds, the rules' own `for:` minutes);
 * expressions, windows and thresholds are the file's. Before each row it waits until no alert is
 * pending or firing (so a row starts steady), and after the run asks the HTTP API which alerts fired in
 * which row and phase (query_range over ALERTS) and whether every dashboard panel's query returned series.
 */
const RULES = 'deploy/monitoring/alerts.yml';
/** The alert each fault row must raise while it lasts. */
export const EXPECTED: Record<string, string> = {
  'redis-restart': 'GatewayRedisDown',
  'upstream-429': 'GatewayUpstream429',
  'holder-killed': 'GatewayNoLiveLockHolder',
};

/** Panel queries that cannot have series here, and why (listed, not failed). */
const NO_SERIES_HERE: Record<string, string> = {
  'Webhook deliveries and refusals / {{outcome}}':
    'the chaos stages run without WEBHOOK_URL (no Data API webhook delivers to them); test/integration/live-webhooks.test.ts reads this counter',
};

export interface RowWindow {
  name: string;
  fault: string;
  start: number;
  end: number;
  /** From the row's load (scripts/chaos-rows.ts): when the fault began and ended. */
  faultStart?: number;
  faultEnd?: number;
  /** How long the row waited for the alerts of the rows before it to resolve. */
  settledMs: number;
}

export interface Prometheus {
  url: string;
  token: string;
  setTargets(urls: string[]): void;
  /** The alerts pending or firing now. */
  active(): Promise<string[]>;
  /** Waits (at most `limitMs`) until no alert is pending or firing; returns how long it waited. */
  settle(limitMs: number): Promise<number>;
  report(
    rows: RowWindow[],
    from: number,
    to: number,
  ): Promise<{ text: string; failures: string[] }>;
  stop(): Promise<void>;
}

export async function startPrometheus(): Promise<Prometheus> {
  const dir = mkdtempSync(join(tmpdir(), 'chaos-prometheus-'));
  const port = await freePort();
  const token = `chaos-${Math.random().toString(36).slice(2)}`;
  writeFileSync(join(dir, 'token'), token);
  writeFileSync(join(dir, 'targets.json'), '[]');
  // The test-time copy: every `for:` 1 s.
  writeFileSync(
    join(dir, 'rules.yml'),
    readFileSync(RULES, 'utf8').replace(/^(\s+)for: .*$/gm, '$1for: 1s'),
  );
  writeFileSync(
    join(dir, 'prometheus.yml'),
    [
      'global: { scrape_interval: 1s, scrape_timeout: 1s, evaluation_interval: 1s }',
      'rule_files: [rules.yml]',
      'scrape_configs:',
      '  - job_name: gateway',
      `    authorization: { type: Bearer, credentials_file: ${join(dir, 'token')} }`,
      `    file_sd_configs: [{ files: [${join(dir, 'targets.json')}], refresh_interval: 1s }]`,
      '',
    ].join('\n'),
  );
  let out = '';
  const child: ChildProcess = spawn(
    process.env.PROMETHEUS_BIN ?? '/usr/bin/prometheus',
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--storage.tsdb.retention.time=1d',
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout?.on('data', (d) => (out = (out + String(d)).slice(-10_000)));
  child.stderr?.on('data', (d) => (out = (out + String(d)).slice(-10_000)));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`prometheus exited (${child.exitCode}):\n${out}`);
    if (
      await fetch(`${url}/-/ready`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (i > 150) throw new Error(`prometheus not ready within 30 s:\n${out}`);
    await sleep(200);
  }
  const api = async <T>(path: string, params: Record<string, string | number>): Promise<T> => {
    const q = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
    const body = (await (await fetch(`${url}/api/v1/${path}?${q}`)).json()) as {
      status: string;
      data: T;
      error?: string;
    };
    if (body.status !== 'success') throw new Error(`prometheus ${path}: ${body.error}`);
    return body.data;
  };
  type Matrix = { result: { metric: Record<string, string>; values: [number, string][] }[] };
  const range = (query: string, from: number, to: number, step = 1) =>
    api<Matrix>('query_range', { query, start: from / 1000, end: to / 1000, step });
  const active = async () =>
    (
      await api<{ result: { metric: Record<string, string> }[] }>('query', { query: 'ALERTS' })
    ).result.map((s) => `${s.metric.alertname}(${s.metric.alertstate})`);

  return {
    url,
    token,
    setTargets(urls) {
      const targets = urls.map((u) => new URL(u).host);
      writeFileSync(join(dir, 'targets.json'), JSON.stringify([{ targets, labels: {} }]));
    },
    active,
    async settle(limitMs) {
      const t0 = Date.now();
      // Two evaluations, so an alert a fault just raised is seen before judging the quiet.
      await sleep(2_000);
      while (Date.now() - t0 < limitMs && (await active()).length > 0) await sleep(1_000);
      return Date.now() - t0;
    },
    async report(rows, from, to) {
      const failures: string[] = [];
      const lines: string[] = [];
      // Which alerts fired when: every firing sample attributed to a row's phase.
      const fired = await range('ALERTS{alertstate="firing"}', from, to);
      type Cell = Map<string, Set<string>>;
      const cells = new Map<string, { baseline: Cell; fault: Cell; tail: Cell; after: Cell }>();
      for (const r of rows)
        cells.set(r.name, {
          baseline: new Map(),
          fault: new Map(),
          tail: new Map(),
          after: new Map(),
        });
      const add = (cell: Cell, alert: string, detail: string) => {
        if (!cell.has(alert)) cell.set(alert, new Set());
        if (detail) cell.get(alert)!.add(detail);
      };
      for (const s of fired.result) {
        const detail = s.metric.chain ?? s.metric.upstream ?? '';
        for (const [t] of s.values) {
          const ms = t * 1000;
          const i = rows.findIndex((r, k) => ms >= r.start && ms < (rows[k + 1]?.start ?? to + 1));
          if (i < 0) continue;
          const r = rows[i]!;
          const c = cells.get(r.name)!;
          const phase =
            ms > r.end
              ? c.after
              : r.faultStart === undefined || ms < r.faultStart
                ? c.baseline
                : ms <= (r.faultEnd ?? r.end)
                  ? c.fault
                  : c.tail;
          add(phase, s.metric.alertname!, detail);
        }
      }
      const show = (c: Cell) =>
        c.size === 0
          ? '—'
          : [...c].map(([a, d]) => (d.size ? `${a} (${[...d].join(', ')})` : a)).join(', ');
      lines.push(
        '| row | before the fault | during the fault | tail | after the row, until quiet | waited for quiet before it |',
        '| --- | --- | --- | --- | --- | --- |',
      );
      for (const r of rows) {
        const c = cells.get(r.name)!;
        lines.push(
          `| ${r.name}: ${r.fault} | ${show(c.baseline)} | ${r.faultStart === undefined ? 'n/a' : show(c.fault)} | ${show(c.tail)} | ${show(c.after)} | ${Math.round(r.settledMs / 1000)} s |`,
        );
        if (c.baseline.size > 0)
          failures.push(`${r.name}: alerts fired before its fault: ${show(c.baseline)}`);
        if (r.name === 'steady' && (c.tail.size || c.after.size))
          failures.push(`steady: alerts fired: ${show(c.tail)} ${show(c.fault)}`);
        const want = EXPECTED[r.name];
        if (want && !c.fault.has(want) && !c.tail.has(want))
          failures.push(`${r.name}: ${want} did not fire during its fault`);
      }
      // Every panel's query over the run.
      const empty: string[] = [];
      const queries = panelQueries();
      for (const q of queries) {
        const m = await range(q.expr, from, to, 2);
        const values = m.result.flatMap((s) => s.values.map(([, v]) => Number(v)));
        if (!values.some((v) => Number.isFinite(v))) empty.push(`${q.panel} / ${q.legend}`);
      }
      lines.push(
        '',
        `Dashboard: ${queries.length - empty.length} of ${queries.length} panel queries returned series over the run.`,
      );
      for (const e of empty)
        lines.push(`  - no series: ${e}${NO_SERIES_HERE[e] ? ` (${NO_SERIES_HERE[e]})` : ''}`);
      return {
        text: lines.join('\n'),
        failures: failures.concat(
          empty.filter((e) => !NO_SERIES_HERE[e]).map((e) => `empty panel query: ${e}`),
        ),
      };
    },
    async stop() {
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
