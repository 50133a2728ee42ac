import { readFileSync, writeFileSync } from 'node:fs';

/**
 * `npm run -s monitoring:dashboard [check]`: writes deploy/monitoring/grafana-dashboard.json (Grafana's
 * dashboard JSON; import it, or provision it) from the panels below; `check` fails when it is stale.
 * Every query filters on the `job` variable; `$__rate_interval` is Grafana's. The metrics are
 * docs/observability.md's. test/unit/monitoring.test.ts checks every query parses (promtool) and
 * names only metrics the gateway exports; `npm run monitoring:prometheus` checks every panel returns
 * series from three replicas under the chaos rows.
 */
export const DASHBOARD_PATH = 'deploy/monitoring/grafana-dashboard.json';

interface Query {
  expr: string;
  legend: string;
}
interface Panel {
  title: string;
  description: string;
  unit: string;
  queries: Query[];
  type?: 'timeseries' | 'stat';
}

/** A selector of the dashboard's job, plus `matchers`. */
const m = (metric: string, matchers = '') =>
  `${metric}{job=~"$job"${matchers ? `,${matchers}` : ''}}`;
const rate = (metric: string, matchers = '') => `rate(${m(metric, matchers)}[$__rate_interval])`;
const ratio = (hit: string, all: string) => `${hit}\n/\n${all}`;

export const ROWS: { title: string; panels: Panel[] }[] = [
  {
    title: 'Requests',
    panels: [
      {
        title: 'Requests by operation',
        description:
          'GraphQL requests per second by operation (persisted and named ones; `other` for the rest).',
        unit: 'reqps',
        queries: [
          {
            expr: `sum by (operation) (${rate('gateway_graphql_request_duration_seconds_count')})`,
            legend: '{{operation}}',
          },
        ],
      },
      {
        title: 'Errors by code and operation',
        description: 'Answers holding an error per second, by extensions.code and operation.',
        unit: 'reqps',
        queries: [
          {
            expr: `sum by (code, operation) (${rate('gateway_graphql_errors_total')})`,
            legend: '{{code}} {{operation}}',
          },
        ],
      },
      {
        title: 'Requests by HTTP status',
        description: 'GraphQL requests per second by the HTTP status answered.',
        unit: 'reqps',
        queries: [
          {
            expr: `sum by (status) (${rate('gateway_graphql_request_duration_seconds_count')})`,
            legend: '{{status}}',
          },
        ],
      },
      {
        title: 'Latency p50 / p99',
        description:
          'Time to serve a GraphQL request (all replicas). GatewayP99Doubled compares the p99 with its day.',
        unit: 's',
        queries: [0.5, 0.99].map((q) => ({
          expr: `histogram_quantile(${q}, sum by (le) (${rate('gateway_graphql_request_duration_seconds_bucket')}))`,
          legend: `p${q * 100}`,
        })),
      },
      {
        title: 'p99 by operation',
        description: 'Which page got slow: the p99 of each operation.',
        unit: 's',
        queries: [
          {
            expr: `histogram_quantile(0.99, sum by (operation, le) (${rate('gateway_graphql_request_duration_seconds_bucket')}))`,
            legend: '{{operation}}',
          },
        ],
      },
    ],
  },
  {
    title: 'Cache',
    panels: [
      {
        title: 'Hit ratio per tier',
        description:
          'LRU: keys found in the process; Redis: keys found there after an LRU miss; response cache: whole answers served from it; fast path: answered before Yoga; read-through: upstream answers served from any tier.',
        unit: 'percentunit',
        queries: [
          ...['lru', 'redis'].map((tier) => ({
            expr: ratio(
              `sum(${rate('gateway_cache_tier_reads_total', `tier="${tier}",result="hit"`)})`,
              `sum(${rate('gateway_cache_tier_reads_total', `tier="${tier}"`)})`,
            ),
            legend: tier === 'lru' ? 'LRU' : 'Redis',
          })),
          {
            expr: ratio(
              `sum(${rate('gateway_response_cache_total', 'event=~"hit|fast-hit"')})`,
              `sum(${rate('gateway_response_cache_total', 'event=~"hit|fast-hit|miss"')})`,
            ),
            legend: 'response cache',
          },
          {
            expr: ratio(
              `sum(${rate('gateway_response_cache_total', 'event="fast-hit"')})`,
              `sum(${rate('gateway_response_cache_total', 'event=~"hit|fast-hit|miss"')})`,
            ),
            legend: 'fast path',
          },
          {
            expr: ratio(
              `sum(${rate('gateway_cache_events_total', 'event=~"hit|negative-hit|coalesced|stale-.*"')})`,
              `sum(${rate('gateway_cache_events_total', 'event=~"hit|negative-hit|coalesced|stale-.*|miss"')})`,
            ),
            legend: 'read-through',
          },
        ],
      },
      {
        title: 'Cache events',
        description:
          'Read-through outcomes per second (hit, miss, coalesced, stale-*, refresh-failed).',
        unit: 'ops',
        queries: [
          {
            expr: `sum by (event) (${rate('gateway_cache_events_total')})`,
            legend: '{{event}}',
          },
        ],
      },
      {
        title: 'Redis health',
        description:
          'Replicas whose shared cache answers (1 each), and Redis errors per second by operation.',
        unit: 'short',
        queries: [
          { expr: `sum(${m('gateway_cache_healthy')})`, legend: 'healthy replicas' },
          { expr: `count(${m('gateway_cache_healthy')})`, legend: 'replicas' },
          {
            expr: `sum by (op) (${rate('gateway_redis_errors_total')})`,
            legend: 'errors {{op}}',
          },
        ],
      },
    ],
  },
  {
    title: 'Upstreams and the plan',
    panels: [
      {
        title: 'CUs per minute by upstream and route, against the plan',
        description:
          "Compute units spent over the last minute by route, and the plan's minute (UPSTREAM_PLAN or UPSTREAM_CU_PER_MINUTE).",
        unit: 'short',
        queries: [
          {
            expr: `sum by (upstream, route) (increase(${m('gateway_upstream_cu_total')}[1m]))`,
            legend: '{{upstream}} {{route}}',
          },
          {
            expr: `max by (upstream) (${m('gateway_upstream_plan_cu_limit', 'window="minute"')})`,
            legend: 'plan minute ({{upstream}})',
          },
        ],
      },
      {
        title: "The plan's minute and day used",
        description:
          'Share of the plan spent over the last minute and the last 24 h (all replicas; GatewayPlanMinuteBurning at 90%, GatewayPlanDayBurning at 80%).',
        unit: 'percentunit',
        type: 'stat',
        queries: [
          {
            expr: ratio(
              `sum by (upstream) (increase(${m('gateway_upstream_cu_total')}[1m]))`,
              `max by (upstream) (${m('gateway_upstream_plan_cu_limit', 'window="minute"')})`,
            ),
            legend: 'minute {{upstream}}',
          },
          {
            expr: ratio(
              `sum by (upstream) (increase(${m('gateway_upstream_cu_total')}[1d]))`,
              `max by (upstream) (${m('gateway_upstream_plan_cu_limit', 'window="day"')})`,
            ),
            legend: 'day {{upstream}}',
          },
        ],
      },
      {
        title: 'Upstream calls by outcome',
        description:
          'Calls (after retries) per second: ok, the error status or kind, refused (never sent: the plan).',
        unit: 'reqps',
        queries: [
          {
            expr: `sum by (upstream, outcome) (${rate('gateway_upstream_calls_total')})`,
            legend: '{{upstream}} {{outcome}}',
          },
        ],
      },
      {
        title: 'Upstream 429s and open breakers',
        description:
          'Attempts answered 429 per second (GatewayUpstream429), and circuit breakers open by upstream (GatewayBreakerOpen).',
        unit: 'short',
        queries: [
          {
            expr: `sum by (upstream) (${rate('gateway_upstream_request_duration_seconds_count', 'status="429"')})`,
            legend: '429/s {{upstream}}',
          },
          {
            expr: `max by (upstream) (${m('gateway_upstream_breakers_open')})`,
            legend: 'breakers open {{upstream}}',
          },
        ],
      },
      {
        title: 'Governor refusals and stale answers served',
        description:
          'Calls the plan-wide governor refused before sending (by budget and work), and stale answers served instead of an upstream call.',
        unit: 'ops',
        queries: [
          {
            expr: `sum by (budget, work) (${rate('gateway_upstream_cu_refused_total')})`,
            legend: 'refused {{budget}} {{work}}',
          },
          {
            expr: `sum by (event) (${rate('gateway_cache_events_total', 'event=~"stale-if-error|stale-if-slow|stale-revalidate"')})`,
            legend: '{{event}}',
          },
        ],
      },
      {
        title: 'Upstream latency p99',
        description: 'Each upstream attempt until its response headers.',
        unit: 's',
        queries: [
          {
            expr: `histogram_quantile(0.99, sum by (upstream, le) (${rate('gateway_upstream_request_duration_seconds_bucket')}))`,
            legend: '{{upstream}}',
          },
        ],
      },
    ],
  },
  {
    title: 'Live',
    panels: [
      {
        title: 'Heads and the live lock',
        description:
          'Heads delivered per minute by chain, and how many replicas follow its node (1: GatewayNoLiveLockHolder when 0).',
        unit: 'short',
        queries: [
          {
            expr: `max by (chain) (delta(${m('gateway_live_head_block')}[1m]))`,
            legend: 'heads/min {{chain}}',
          },
          {
            expr: `sum by (chain) (${m('gateway_live_lock_held')})`,
            legend: 'lock holders {{chain}}',
          },
        ],
      },
      {
        title: 'Subscribers',
        description:
          'Subscriptions served now (newBlocks and the like; addressActivity), and upstream websockets held.',
        unit: 'short',
        queries: [
          { expr: `sum(${m('gateway_live_subscribers')})`, legend: 'subscriptions' },
          {
            expr: `sum(${m('gateway_live_activity_subscribers')})`,
            legend: 'addressActivity',
          },
          { expr: `sum(${m('gateway_live_upstream_sockets')})`, legend: 'upstream sockets' },
        ],
      },
      {
        title: 'Webhook deliveries and refusals',
        description:
          'Data API webhook deliveries per second by outcome: delivered, duplicate; refused: bad-signature (GatewayWebhookBadSignature), replayed, stale, malformed, …',
        unit: 'reqps',
        queries: [
          {
            expr: `sum by (outcome) (${rate('gateway_live_webhook_deliveries_total')})`,
            legend: '{{outcome}}',
          },
        ],
      },
    ],
  },
  {
    title: 'Process',
    panels: [
      {
        title: 'Resident memory',
        description: 'RSS of each replica.',
        unit: 'bytes',
        queries: [{ expr: m('process_resident_memory_bytes'), legend: '{{instance}}' }],
      },
      {
        title: 'Event-loop lag',
        description: "The p99 of each replica's event-loop delay.",
        unit: 's',
        queries: [{ expr: m('nodejs_eventloop_lag_p99_seconds'), legend: '{{instance}}' }],
      },
      {
        title: 'Process errors',
        description:
          'Unhandled rejections and uncaught exceptions survived over 5 minutes (GatewayProcessErrors).',
        unit: 'short',
        queries: [
          {
            expr: `sum by (instance, kind) (increase(${m('gateway_process_errors_total')}[5m]))`,
            legend: '{{instance}} {{kind}}',
          },
        ],
      },
    ],
  },
];

// Grafana's own variable syntax, not a template literal.
// biome-ignore lint/suspicious/noTemplateCurlyInString: a Grafana dashboard variable
const DATASOURCE = { type: 'prometheus', uid: '${datasource}' };

export function dashboard(): Record<string, unknown> {
  const panels: Record<string, unknown>[] = [];
  let id = 1;
  let y = 0;
  for (const row of ROWS) {
    panels.push({
      type: 'row',
      id: id++,
      title: row.title,
      collapsed: false,
      gridPos: { h: 1, w: 24, x: 0, y },
      panels: [],
    });
    y += 1;
    row.panels.forEach((p, i) => {
      panels.push({
        type: p.type ?? 'timeseries',
        id: id++,
        title: p.title,
        description: p.description,
        datasource: DATASOURCE,
        gridPos: { h: 8, w: 8, x: (i % 3) * 8, y: y + Math.floor(i / 3) * 8 },
        fieldConfig: { defaults: { unit: p.unit }, overrides: [] },
        options: {},
        targets: p.queries.map((q, k) => ({
          datasource: DATASOURCE,
          expr: q.expr,
          legendFormat: q.legend,
          refId: String.fromCharCode(65 + k),
        })),
      });
    });
    y += Math.ceil(row.panels.length / 3) * 8;
  }
  return {
    title: 'Avalanche GraphQL gateway',
    uid: 'avalanche-graphql-gateway',
    description:
      'Requests, caches, the upstream plan, live heads and the process (docs/operations.md, "Dashboard and alerts"; the alerts\' runbooks there too).',
    tags: ['graphql', 'avalanche'],
    timezone: 'utc',
    schemaVersion: 39,
    version: 1,
    editable: true,
    refresh: '30s',
    time: { from: 'now-3h', to: 'now' },
    templating: {
      list: [
        { name: 'datasource', label: 'Prometheus', type: 'datasource', query: 'prometheus' },
        {
          name: 'job',
          label: 'Job',
          type: 'query',
          datasource: DATASOURCE,
          query: 'label_values(gateway_graphql_request_duration_seconds_count, job)',
          refresh: 2,
          includeAll: true,
          multi: true,
          allValue: '.+',
          current: { text: 'All', value: '$__all' },
        },
      ],
    },
    panels,
  };
}

/** Every panel's queries, as Prometheus would run them (`$job` any, `$__rate_interval` 1m). */
export function panelQueries(
  json = JSON.parse(readFileSync(DASHBOARD_PATH, 'utf8')) as { panels: PanelJson[] },
  rateInterval = '1m',
): { panel: string; legend: string; expr: string }[] {
  return json.panels
    .filter((p) => p.type !== 'row')
    .flatMap((p) =>
      (p.targets ?? []).map((t) => ({
        panel: p.title,
        legend: t.legendFormat,
        expr: t.expr.replaceAll('$__rate_interval', rateInterval).replaceAll('"$job"', '".+"'),
      })),
    );
}
interface PanelJson {
  type: string;
  title: string;
  targets?: { expr: string; legendFormat: string }[];
}

export const dashboardText = () => `${JSON.stringify(dashboard(), null, 2)}\n`;

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv[2] === 'check') {
    if (readFileSync(DASHBOARD_PATH, 'utf8') !== dashboardText()) {
      console.error(`${DASHBOARD_PATH} is stale: run npm run -s monitoring:dashboard`);
      process.exit(1);
    }
  } else {
    writeFileSync(DASHBOARD_PATH, dashboardText());
    console.log(`wrote ${DASHBOARD_PATH}`);
  }
}
