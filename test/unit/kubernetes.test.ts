import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { check, deployCopy, render } from '../support/kubernetes.js';

/**
 * deploy/kubernetes renders offline (`kubectl kustomize`) and every object passes the Kubernetes API's
 * schema and our rules (test/support/kubernetes.ts); a copy with a defect is refused.
 */
const dir = deployCopy();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const edit = (file: string, from: string | RegExp, to: string) => {
  const path = join(dir, file);
  const text = readFileSync(path, 'utf8');
  const next = text.replace(from, to);
  if (next === text) throw new Error(`${file}: nothing replaced`);
  writeFileSync(path, next);
  return () => writeFileSync(path, text);
};

describe('Kubernetes manifests', () => {
  it.each(['overlays/redis-single', 'overlays/redis-cluster'])('%s renders and passes', (o) => {
    const objects = render(join(dir, o));
    expect(check(objects)).toEqual([]);
    const kinds = objects.map((x) => `${x.kind}/${x.metadata.name.replace(/-[a-z0-9]{10}$/, '')}`);
    expect(kinds).toEqual(
      expect.arrayContaining([
        'Deployment/gateway',
        'Service/gateway',
        'HorizontalPodAutoscaler/gateway',
        'PodDisruptionBudget/gateway',
        'ConfigMap/gateway-config',
        'Secret/gateway-secrets',
      ]),
    );
    const cm = objects.find((x) => x.kind === 'ConfigMap')!;
    expect(cm.data.REDIS_URL).toMatch(/^redis:\/\//);
    expect(cm.data.REDIS_CLUSTER === 'true').toBe(o.endsWith('cluster'));
  });

  it('the optional ServiceMonitor and PrometheusRule (monitoring/) render and pass beside an overlay', () => {
    writeFileSync(join(dir, 'kustomization.yaml'), 'bases: [overlays/redis-single, monitoring]\n');
    const objects = render(dir);
    expect(objects.some((x) => x.kind === 'ServiceMonitor')).toBe(true);
    expect(check(objects)).toEqual([]);
    // In production /metrics on PORT is refused without METRICS_TOKEN (issue 42): it scrapes METRICS_PORT.
    const monitor = objects.find((x) => x.kind === 'ServiceMonitor')!;
    const service = objects.find((x) => x.kind === 'Service' && x.metadata.name === 'gateway')!;
    const cm = objects.find((x) => x.kind === 'ConfigMap')!;
    const container = objects.find((x) => x.kind === 'Deployment')!.spec.template.spec
      .containers[0];
    const port = service.spec.ports.find(
      (p: { name: string }) => p.name === monitor.spec.endpoints[0].port,
    );
    const target = container.ports.find((p: { name: string }) => p.name === port.targetPort);
    expect(cm.data.METRICS_PORT).toBeDefined();
    expect(target.containerPort).toBe(Number(cm.data.METRICS_PORT));
    expect(target.containerPort).not.toBe(Number(cm.data.PORT));
  });

  it.each([
    ['no readiness probe', /\n {10}readinessProbe:\n( {12}.*\n)+/, '\n', /no readinessProbe/],
    [
      'a writable root filesystem',
      'readOnlyRootFilesystem: true',
      'readOnlyRootFilesystem: false',
      /writable/,
    ],
    ['no memory limit', /\n {14}memory: 512Mi/, '', /no resources.limits.memory|schema/],
    [
      'a grace shorter than the drain',
      'terminationGracePeriodSeconds: 25',
      'terminationGracePeriodSeconds: 12',
      /terminationGracePeriodSeconds 12/,
    ],
    ['a port as a string', 'containerPort: 4000', 'containerPort: "4000"', /schema.*containerPort/],
    [
      'root',
      'runAsNonRoot: true\n            capabilities',
      'runAsUser: 0\n            capabilities',
      /may run as root/,
    ],
  ])('a copy with %s is refused', (_what, from, to, problem) => {
    const restore = edit('base/deployment.yaml', from, to);
    try {
      const problems = check(render(join(dir, 'overlays/redis-single')));
      expect(problems.join('\n')).toMatch(problem);
    } finally {
      restore();
    }
  });

  it("a copy that leaves Node 24's young generation at its default (192 MB beside the old one) is refused: it does not fit the memory limit", () => {
    const restore = edit('base/config.env', ' --max-semi-space-size=16', '');
    try {
      expect(check(render(join(dir, 'overlays/redis-single'))).join('\n')).toMatch(
        /memory limit under V8's 576 MB heap \(384 old, 192 young\)/,
      );
    } finally {
      restore();
    }
  });

  it('a Secret without CURSOR_SECRET, or a secret in the ConfigMap, is refused', () => {
    let restore = edit('base/secrets.env', /^CURSOR_SECRET=.*\n/m, '');
    try {
      expect(check(render(join(dir, 'overlays/redis-single'))).join('\n')).toMatch(/CURSOR_SECRET/);
    } finally {
      restore();
    }
    restore = edit('base/config.env', 'LOG_LEVEL=info', 'LOG_LEVEL=info\nADMIN_TOKEN=abcdefgh');
    try {
      expect(check(render(join(dir, 'overlays/redis-single'))).join('\n')).toMatch(
        /ADMIN_TOKEN is a secret/,
      );
    } finally {
      restore();
    }
  });
});
