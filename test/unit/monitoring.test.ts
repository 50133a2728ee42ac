import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DASHBOARD_PATH, dashboardText, panelQueries } from '../../scripts/monitoring-dashboard.js';
import { PROMETHEUS_RULE_PATH, prometheusRule } from '../../scripts/monitoring-rules.js';
import { sourceFiles } from '../../scripts/source-files.js';

/**
 * deploy/monitoring: the alert rules pass `promtool check rules` and `promtool test rules` (every alert
 * tested firing and not firing), a planted broken rule fails either, every alert has its runbook in
 * docs/operations.md, and the dashboard's queries parse and name only metrics the gateway exports.
 * promtool is Debian's `prometheus` package (.ci/run installs it): without it the promtool tests skip,
 * except under CI=true, where a missing promtool fails.
 */
const PROMTOOL = process.env.PROMTOOL_BIN ?? 'promtool';
const haveProm = !spawnSync(PROMTOOL, ['--version']).error;
const RULES = 'deploy/monitoring/alerts.yml';
const TESTS = 'deploy/monitoring/alerts.test.yml';
const promtool = (...args: string[]) => {
  const r = spawnSync(PROMTOOL, args, { encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
};

interface RuleGroup {
  rules: { alert?: string; record?: string; expr: string; annotations?: Record<string, string> }[];
}
const alerts = (parse(readFileSync(RULES, 'utf8')) as { groups: RuleGroup[] }).groups
  .flatMap((g) => g.rules)
  .filter((r) => r.alert);

const dir = mkdtempSync(join(tmpdir(), 'gw-rules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
/** A copy of deploy/monitoring with `edit` applied to one file; returns the copy's folder. */
const plant = (file: string, from: string, to: string): string => {
  const copy = mkdtempSync(join(dir, 'copy-'));
  cpSync('deploy/monitoring', copy, { recursive: true });
  const text = readFileSync(join(copy, file), 'utf8');
  if (!text.includes(from)) throw new Error(`${file}: no ${from}`);
  writeFileSync(join(copy, file), text.replace(from, to));
  return copy;
};

describe('promtool', () => {
  it('is installed where CI runs (CI=true: a missing promtool fails, never skips)', () => {
    if (process.env.CI === 'true') expect(haveProm, `${PROMTOOL} not found`).toBe(true);
  });

  describe.skipIf(!haveProm)('the alert rules', () => {
    it('pass promtool check rules', () => {
      const r = promtool('check', 'rules', RULES);
      expect(r.out).toContain('SUCCESS');
      expect(r.status).toBe(0);
    });

    it('pass promtool test rules', () => {
      const r = promtool('test', 'rules', TESTS);
      expect(r.out).toContain('SUCCESS');
      expect(r.status).toBe(0);
    }, 60_000);

    it('a copy with a broken expression fails check rules', () => {
      const copy = plant(
        'alerts.yml',
        'max by (job, chain) (gateway_live_lock_held) == 0',
        'max by (job, chain) (gateway_live_lock_held == 0',
      );
      const r = promtool('check', 'rules', join(copy, 'alerts.yml'));
      expect(r.status).not.toBe(0);
      expect(r.out).toMatch(/parse error|unclosed/i);
    });

    it.each([
      ['a wrong threshold', '> 0.9 * max by (job, upstream)', '> 1.9 * max by (job, upstream)'],
      [
        'a longer for:',
        'expr: count by (job) (gateway_cache_healthy == 0)\n        for: 1m',
        'expr: count by (job) (gateway_cache_healthy == 0)\n        for: 5m',
      ],
    ])(
      'a copy with %s fails test rules, naming the alert',
      (_what, from, to) => {
        const copy = plant('alerts.yml', from, to);
        const r = promtool('test', 'rules', join(copy, 'alerts.test.yml'));
        expect(r.status).not.toBe(0);
        expect(r.out).toMatch(/FAILED[\s\S]*alertname: Gateway(PlanMinuteBurning|RedisDown)/);
      },
      60_000,
    );

    it("the dashboard's every query parses", () => {
      const queries = panelQueries();
      const file = join(dir, 'panels.yml');
      const rules = queries.map((q, i) => ({ record: `panel_query_${i}`, expr: q.expr }));
      writeFileSync(file, JSON.stringify({ groups: [{ name: 'panels', rules }] }));
      const r = promtool('check', 'rules', file);
      expect(r.out).toContain(`SUCCESS: ${queries.length} rules found`);
    });
  });
});

describe('the alert rules and their runbooks', () => {
  const tests = (
    parse(readFileSync(TESTS, 'utf8')) as {
      tests: { alert_rule_test?: { alertname: string; exp_alerts?: unknown[] }[] }[];
    }
  ).tests.flatMap((t) => t.alert_rule_test ?? []);

  it.each(alerts.map((a) => a.alert!))('%s is tested firing and not firing', (name) => {
    const mine = tests.filter((t) => t.alertname === name);
    expect(mine.some((t) => (t.exp_alerts ?? []).length > 0)).toBe(true);
    expect(mine.some((t) => (t.exp_alerts ?? []).length === 0)).toBe(true);
  });

  it.each(alerts.map((a) => a.alert!))(
    '%s has a runbook section in docs/operations.md (what it means, what to check, what to do)',
    (name) => {
      const rule = alerts.find((a) => a.alert === name)!;
      expect(rule.annotations?.runbook).toBe(`docs/operations.md#${name.toLowerCase()}`);
      const doc = readFileSync('docs/operations.md', 'utf8');
      const at = doc.indexOf(`\n### ${name}\n`);
      expect(at, `### ${name}`).toBeGreaterThan(0);
      const section = doc.slice(at + 1).split(/\n##/)[0]!;
      for (const part of ['**What it means.**', '**What to check.**', '**What to do.**'])
        expect(section).toContain(part);
    },
  );

  it('the PrometheusRule is the plain file, as generated (npm run -s monitoring:rules)', () => {
    expect(readFileSync(PROMETHEUS_RULE_PATH, 'utf8')).toBe(prometheusRule());
  });
});

/** Every metric name the gateway exports: the `name:` of its metrics, and prom-client's defaults. */
function exported(): Set<string> {
  const names = new Set<string>();
  for (const f of sourceFiles('src'))
    for (const m of readFileSync(f, 'utf8').matchAll(/name: '([a-z_]+)'/g)) names.add(m[1]!);
  const defaults = 'node_modules/prom-client/lib/metrics';
  for (const f of readdirSync(defaults).filter((f) => f.endsWith('.js')))
    for (const m of readFileSync(join(defaults, f), 'utf8').matchAll(
      /'((?:process|nodejs)_[a-z_]+)'/g,
    ))
      names.add(m[1]!);
  return names;
}
/** The metric names a query reads that the gateway does not export (histogram suffixes stripped). */
function unknownMetrics(expr: string, names = exported()): string[] {
  const used = expr.match(/\b(?:gateway|process|nodejs)_[a-z_]+\b/g) ?? [];
  return used
    .map((n) => n.replace(/_(bucket|count|sum)$/, ''))
    .filter((n) => !names.has(n) && !/^job:/.test(n));
}

describe('the dashboard', () => {
  it('is as generated (npm run -s monitoring:dashboard)', () => {
    expect(readFileSync(DASHBOARD_PATH, 'utf8')).toBe(dashboardText());
  });

  it('and the alert rules name only metrics the gateway exports; a misspelt one is found', () => {
    const names = exported();
    const exprs = [...panelQueries().map((q) => q.expr), ...alerts.map((a) => a.expr)];
    expect(exprs.flatMap((e) => unknownMetrics(e, names))).toEqual([]);
    expect(unknownMetrics('sum(rate(gateway_cache_helthy[1m]))', names)).toEqual([
      'gateway_cache_helthy',
    ]);
  });
});
