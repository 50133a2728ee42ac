import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  PrometheusRule,
  ServiceMonitor,
} from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Secret, Service } from 'kubernetes-models/v1';
import { parseAllDocuments } from 'yaml';
import { loadConfig } from '../../src/config.js';
import { ACCEPTS, SECRETS } from '../../src/config-settings.js';
import { checkHeapLimit } from '../../src/heap-limit.js';

/**
 * deploy/kubernetes rendered with `kubectl kustomize` (offline) and judged: each object against the
 * Kubernetes API's JSON schema (kubernetes-models' validators), then the project's own rules.
 */
export type K8sObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  // A manifest is read as the API's loose JSON.
  [k: string]: any;
};

const MODELS: Record<string, new (o: never) => { validate(): void }> = {
  'apps/v1/Deployment': Deployment,
  'v1/Service': Service,
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'monitoring.coreos.com/v1/ServiceMonitor': ServiceMonitor,
  'monitoring.coreos.com/v1/PrometheusRule': PrometheusRule,
};

/** A copy of deploy/kubernetes with a filled secrets.env (the real one is never in git). */
export function deployCopy(root = 'deploy/kubernetes'): string {
  const dir = mkdtempSync(join(tmpdir(), 'gw-k8s-'));
  cpSync(root, dir, { recursive: true });
  const example = readFileSync(join(dir, 'base/secrets.env.example'), 'utf8');
  const filled = example.replace(/^CURSOR_SECRET=$/m, 'CURSOR_SECRET=a-test-secret-0123456789');
  writeFileSync(join(dir, 'base/secrets.env'), filled);
  return dir;
}

export function render(dir: string): K8sObject[] {
  const r = spawnSync(process.env.KUBECTL_BIN ?? 'kubectl', ['kustomize', dir], {
    encoding: 'utf8',
  });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`kubectl kustomize ${dir} failed:\n${r.stderr}`);
  return parseAllDocuments(r.stdout).map((d) => d.toJS() as K8sObject);
}

const bytes = (q: string | undefined): number => {
  const m = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|k|M|G)?$/.exec(q ?? '');
  if (!m) return Number.NaN;
  const unit = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, k: 1e3, M: 1e6, G: 1e9 }[m[2] ?? ''] ?? 1;
  return Number(m[1]) * unit;
};
const matches = (selector: Record<string, string> = {}, labels: Record<string, string> = {}) =>
  Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels[k] === v);

/** The problems found; empty when the rendered set is valid and keeps every rule. */
export function check(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const name = (o: K8sObject) => `${o.kind}/${o.metadata?.name}`;
  for (const o of objects) {
    const Model = MODELS[`${o.apiVersion}/${o.kind}`];
    if (!Model) {
      problems.push(`${name(o)}: ${o.apiVersion} ${o.kind} has no schema here`);
      continue;
    }
    try {
      new Model(o as never).validate();
    } catch (e) {
      problems.push(`${name(o)}: schema: ${String(e)}`);
    }
  }
  const deployments = objects.filter((o) => o.kind === 'Deployment');
  for (const d of deployments) problems.push(...podRules(d));
  const gateway = deployments.find((d) => d.metadata.name === 'gateway');
  if (!gateway) return [...problems, 'no Deployment/gateway'];
  problems.push(...gatewayRules(gateway, objects));
  const podLabels = (d: K8sObject) => d.spec?.template?.metadata?.labels;
  for (const o of objects) {
    if (o.kind === 'Service' && !deployments.some((d) => matches(o.spec?.selector, podLabels(d))))
      problems.push(`${name(o)}: its selector matches no Deployment's pods`);
    if (
      o.kind === 'PodDisruptionBudget' &&
      !matches(o.spec?.selector?.matchLabels, podLabels(gateway))
    )
      problems.push(`${name(o)}: its selector does not match the gateway's pods`);
    if (o.kind === 'HorizontalPodAutoscaler' && o.spec?.scaleTargetRef?.name !== 'gateway')
      problems.push(`${name(o)}: does not scale Deployment/gateway`);
  }
  return problems;
}

/** Every container: both probes, requests and limits, a non-root user, a read-only root filesystem. */
function podRules(d: K8sObject): string[] {
  const out: string[] = [];
  const pod = d.spec?.template?.spec ?? {};
  for (const c of pod.containers ?? []) {
    const at = `Deployment/${d.metadata.name} container ${c.name}`;
    if (!c.readinessProbe) out.push(`${at}: no readinessProbe`);
    if (!c.livenessProbe) out.push(`${at}: no livenessProbe`);
    for (const kind of ['limits', 'requests'])
      for (const r of ['cpu', 'memory'])
        if (!c.resources?.[kind]?.[r]) out.push(`${at}: no resources.${kind}.${r}`);
    const nonRoot = c.securityContext?.runAsNonRoot ?? pod.securityContext?.runAsNonRoot;
    const user = c.securityContext?.runAsUser ?? pod.securityContext?.runAsUser;
    if (nonRoot !== true || user === 0) out.push(`${at}: may run as root`);
    if (c.securityContext?.readOnlyRootFilesystem !== true)
      out.push(`${at}: root filesystem is writable`);
    if (c.securityContext?.allowPrivilegeEscalation !== false)
      out.push(`${at}: allows privilege escalation`);
  }
  return out;
}

const envOf = (o: K8sObject | undefined): Record<string, string> =>
  o?.kind === 'Secret'
    ? Object.fromEntries(
        Object.entries((o.data ?? {}) as Record<string, string>).map(([k, v]) => [
          k,
          Buffer.from(v, 'base64').toString('utf8'),
        ]),
      )
    : ((o?.data ?? {}) as Record<string, string>);

/** The gateway's probes, shutdown timing, memory and configuration against src/config.ts. */
function gatewayRules(d: K8sObject, objects: K8sObject[]): string[] {
  const out: string[] = [];
  const pod = d.spec.template.spec;
  const c = pod.containers?.find((x: { name: string }) => x.name === 'gateway');
  if (!c) return ['Deployment/gateway: no container named gateway'];
  if (c.readinessProbe?.httpGet?.path !== '/health')
    out.push('gateway: readiness is not on /health');
  if (c.livenessProbe?.httpGet?.path !== '/live') out.push('gateway: liveness is not on /live');
  const refs = (c.envFrom ?? []) as {
    configMapRef?: { name: string };
    secretRef?: { name: string };
  }[];
  const cm = objects.find(
    (o) => o.kind === 'ConfigMap' && refs.some((r) => r.configMapRef?.name === o.metadata.name),
  );
  const secret = objects.find(
    (o) => o.kind === 'Secret' && refs.some((r) => r.secretRef?.name === o.metadata.name),
  );
  if (!cm) out.push('gateway: envFrom names no rendered ConfigMap');
  if (!secret) out.push('gateway: envFrom names no rendered Secret');
  const settings = envOf(cm);
  const secrets = envOf(secret);
  for (const k of Object.keys(settings)) {
    if (SECRETS.has(k)) out.push(`ConfigMap: ${k} is a secret; it belongs in the Secret`);
    else if (!(k in ACCEPTS) && k !== 'NODE_ENV' && k !== 'NODE_OPTIONS')
      out.push(`ConfigMap: ${k} is not a setting of src/config.ts`);
  }
  for (const k of Object.keys(secrets))
    if (!SECRETS.has(k)) out.push(`Secret: ${k} is not a secret setting of src/config.ts`);
  const env = { ...settings, ...secrets };
  if (env.NODE_ENV !== 'production') out.push('ConfigMap: NODE_ENV is not production');
  let config: ReturnType<typeof loadConfig> | undefined;
  try {
    config = loadConfig(env);
  } catch (e) {
    out.push(`the rendered settings do not start the gateway: ${String(e)}`);
  }
  // A secret that production cannot start without must be a key of the Secret.
  for (const k of SECRETS) {
    const { [k]: _, ...without } = { ...env, [k]: '' };
    let required = false;
    try {
      loadConfig(without);
    } catch {
      required = config !== undefined;
    }
    if (required && !(k in secrets)) out.push(`Secret: lacks ${k}, which production requires`);
  }
  if (!config) return out;
  const heapMb = Number(/--max-old-space-size=(\d+)/.exec(settings.NODE_OPTIONS ?? '')?.[1]);
  if (!heapMb) out.push('ConfigMap: NODE_OPTIONS sets no --max-old-space-size');
  else {
    try {
      checkHeapLimit(config.memoryCacheMaxBytes, heapMb * 2 ** 20);
    } catch (e) {
      out.push(String(e));
    }
    // V8's heap is the old generation and the young one (three semi-spaces: 16 MB each on Node 20, 64 on
    // Node 24, the image's, unless --max-semi-space-size says); code, buffers and sockets live outside
    // it, about 80 MB beside it.
    const semiMb = Number(
      /--max-semi-space-size=(\d+)/.exec(settings.NODE_OPTIONS ?? '')?.[1] ?? 64,
    );
    const v8Mb = heapMb + 3 * semiMb;
    if (bytes(c.resources?.limits?.memory) < (v8Mb + 80) * 2 ** 20)
      out.push(
        `gateway: memory limit under V8's ${v8Mb} MB heap (${heapMb} old, ${3 * semiMb} young) + 80 MiB`,
      );
  }
  const preStop = c.lifecycle?.preStop?.exec?.command;
  const preStopS = preStop?.[0] === 'sleep' ? Number(preStop[1]) : 0;
  if (preStopS <= 0)
    out.push('gateway: no preStop sleep (endpoints still route for a few seconds)');
  const needS = preStopS + (config.shutdownDrainMs + config.shutdownGraceMs) / 1000 + 5;
  if ((pod.terminationGracePeriodSeconds ?? 30) < needS)
    out.push(
      `gateway: terminationGracePeriodSeconds ${pod.terminationGracePeriodSeconds ?? 30} < preStop + SHUTDOWN_DRAIN_MS + SHUTDOWN_GRACE_MS + 5 s = ${needS}`,
    );
  const period = c.readinessProbe?.periodSeconds ?? 10;
  const failures = c.readinessProbe?.failureThreshold ?? 3;
  if (preStopS + config.shutdownDrainMs / 1000 < period * failures)
    out.push('gateway: the drain ends before readiness can fail (period × failureThreshold)');
  return out;
}
