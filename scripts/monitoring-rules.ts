import { readFileSync, writeFileSync } from 'node:fs';
import { parse, stringify } from 'yaml';

/**
 * `npm run -s monitoring:rules [check]`: writes deploy/kubernetes/monitoring/prometheusrule.yaml, the
 * Prometheus Operator's PrometheusRule carrying deploy/monitoring/alerts.yml's groups unchanged; `check`
 * fails when it is stale (test/unit/monitoring.test.ts checks the rendered one too).
 */
export const RULES_PATH = 'deploy/monitoring/alerts.yml';
export const PROMETHEUS_RULE_PATH = 'deploy/kubernetes/monitoring/prometheusrule.yaml';

export function prometheusRule(rulesText = readFileSync(RULES_PATH, 'utf8')): string {
  const { groups } = parse(rulesText) as { groups: unknown[] };
  const rule = {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PrometheusRule',
    metadata: {
      name: 'gateway',
      labels: { 'app.kubernetes.io/name': 'avalanche-graphql-gateway' },
    },
    spec: { groups },
  };
  return `# Generated from ${RULES_PATH} by \`npm run -s monitoring:rules\`: edit that file, not this one.\n# Runbooks: docs/operations.md, "Alerts".\n${stringify(rule, { lineWidth: 0 })}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const text = prometheusRule();
  if (process.argv[2] === 'check') {
    if (readFileSync(PROMETHEUS_RULE_PATH, 'utf8') !== text) {
      console.error(`${PROMETHEUS_RULE_PATH} is stale: run npm run -s monitoring:rules`);
      process.exit(1);
    }
  } else {
    writeFileSync(PROMETHEUS_RULE_PATH, text);
    console.log(`wrote ${PROMETHEUS_RULE_PATH}`);
  }
}
