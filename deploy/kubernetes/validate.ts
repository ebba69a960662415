/**
 * Renders the kustomize base with `kubectl kustomize` and checks what it renders (and the Secret template) three
 * ways, printing one line per resource and exiting non-zero on any problem:
 *
 * 1. Against the Kubernetes schemas: each resource through its kubernetes-models class, whose validate() runs
 *    the JSON schema of the Kubernetes OpenAPI document for that kind (types, required fields, enums, formats),
 *    and the ServiceMonitor through @kubernetes-models/prometheus-operator (the operator's CRD schema).
 * 2. For fields the schemas do not know: those schemas allow unknown properties (as the API server does), so
 *    the resources are also written as typed object literals and type-checked with tsc, whose excess-property
 *    check rejects a misspelt field at any depth (what `kubectl apply --validate=strict` does against a cluster).
 * 3. Against each other and the server: probes on /health and /ready through the named port, the termination
 *    grace covering preStop + SHUTDOWN_READINESS_DELAY_S + SHUTDOWN_GRACE_S, selectors matching, every
 *    referenced ConfigMap and Secret present, and the ConfigMap with the Secret template's keys accepted by the
 *    server's own configuration parser; every migration (the init container and the Job) reading its DATABASE_URL
 *    from the migration role's Secret, and the server never (docs/operators/database-roles.md).
 *
 *   npx tsx deploy/kubernetes/validate.ts [kustomization directory, default deploy/kubernetes/base]
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { loadConfig } from '../../src/config.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const baseDir = resolve(process.argv[2] ?? join(root, 'deploy/kubernetes/base'));
const secretTemplate = join(root, 'deploy/kubernetes/base/secret.template.yaml');

type Json = Record<string, unknown>;
interface Resource {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly labels?: Record<string, string> };
  readonly [field: string]: unknown;
}

const problems: string[] = [];
const problem = (where: string, message: string): void => void problems.push(`${where}: ${message}`);

function parseResources(text: string, source: string): Resource[] {
  return parseAllDocuments(text).flatMap<Resource>((doc) => {
    if (doc.errors.length > 0) throw new Error(`${source}: ${doc.errors.map((e) => e.message).join('; ')}`);
    const value = doc.toJS() as Resource | null;
    return value === null ? [] : [value];
  });
}

/** The kubernetes-models module that holds a kind: core kinds under v1/, groups under <group>/<version>/. */
function modelModule({ apiVersion, kind }: Resource): string {
  if (apiVersion.startsWith('monitoring.coreos.com/'))
    return `@kubernetes-models/prometheus-operator/${apiVersion}/${kind}`;
  return `kubernetes-models/${apiVersion}/${kind}`;
}

const label = (r: Resource): string => `${r.kind}/${r.metadata.name}`;

async function validateSchema(resource: Resource): Promise<void> {
  const module = (await import(modelModule(resource))) as Record<string, new (data: Json) => { validate(): void }>;
  const Model = module[resource.kind];
  if (Model === undefined) return problem(label(resource), `no schema for ${resource.apiVersion} ${resource.kind}`);
  try {
    // The class sets apiVersion and kind itself; the rest is the resource as rendered.
    new Model({ ...resource }).validate();
  } catch (error) {
    problem(label(resource), error instanceof Error ? error.message : String(error));
  }
}

/** Type-checks every resource as an object literal of its kubernetes-models interface (see 2. above). */
function typeCheck(resources: readonly Resource[]): void {
  const dir = join(root, 'test-results/kubernetes-typecheck');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // Each resource's first line in the file, to name the resource an error is in.
  const starts: number[] = [];
  let source = '';
  resources.forEach((resource, index) => {
    source += `import type { I${resource.kind} as T${index} } from '${modelModule(resource)}';\n`;
    starts.push(source.split('\n').length);
    source += `export const resource${index}: T${index} = ${JSON.stringify(resource, null, 2)};\n\n`;
  });
  const file = join(dir, 'resources.ts');
  writeFileSync(file, source);
  const resourceAt = (line: number) => resources[starts.findLastIndex((start) => start <= line)];
  const tsc = join(root, 'node_modules/.bin/tsc');
  const options = [
    '--noEmit',
    '--strict',
    '--module',
    'nodenext',
    '--moduleResolution',
    'nodenext',
    '--target',
    'es2023',
  ];
  try {
    execFileSync(tsc, [...options, '--skipLibCheck', '--types', 'node', file], { cwd: root, encoding: 'utf8' });
  } catch (error) {
    const output = (error as { stdout?: string }).stdout ?? String(error);
    for (const [, line, message] of output.matchAll(/^[^\s(]+\((\d+),\d+\): error (TS\d+: .*)$/gm)) {
      const resource = resourceAt(Number(line));
      problem(resource === undefined ? 'typed' : label(resource), message ?? '');
    }
  }
}

const get = (value: unknown, ...path: (string | number)[]): unknown =>
  path.reduce<unknown>((at, key) => (at !== null && typeof at === 'object' ? (at as Json)[key] : undefined), value);
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function checkTogether(resources: readonly Resource[], secret: Resource, migrateSecret: Resource): void {
  const byKind = (kind: string) => resources.filter((r) => r.kind === kind);
  const [deployment] = byKind('Deployment');
  const [service] = byKind('Service');
  const [configMap] = byKind('ConfigMap');
  const [job] = byKind('Job');
  if (!deployment || !service || !configMap || !job) {
    return problem('base', 'needs a Deployment, a Service, a ConfigMap and a Job');
  }
  for (const kind of ['PodDisruptionBudget', 'HorizontalPodAutoscaler', 'ServiceMonitor', 'ServiceAccount']) {
    if (byKind(kind).length !== 1) problem('base', `needs one ${kind}`);
  }
  const settings = (get(configMap, 'data') ?? {}) as Record<string, string>;
  const secretKeys = Object.keys(get(secret, 'stringData') ?? {});

  // The server's own parser accepts the settings the pods get.
  const env = { ...settings, ...(get(secret, 'stringData') as Record<string, string>) };
  const loaded = loadConfig(env);
  if (!loaded.ok) for (const p of loaded.problems) problem('ConfigMap + Secret', p);
  for (const key of ['ADMIN_TOKEN', 'UPSTREAM_API_KEY', 'DATABASE_URL']) {
    if (!secretKeys.includes(key)) problem(label(secret), `has no ${key}`);
  }
  if (settings.MIGRATE_ON_START !== 'false') problem(label(configMap), 'the fleet runs with MIGRATE_ON_START=false');

  const pod = get(deployment, 'spec', 'template');
  const [server] = (get(pod, 'spec', 'containers') ?? []) as Json[];
  const where = label(deployment);
  const portNames = ((server?.ports ?? []) as Json[]).map((p) => p.name);
  const probe = (name: string, path: string) => {
    if (get(server, name, 'httpGet', 'path') !== path) problem(where, `${name} must GET ${path}`);
    if (!portNames.includes(get(server, name, 'httpGet', 'port'))) problem(where, `${name} must use a named port`);
  };
  probe('startupProbe', '/health');
  probe('livenessProbe', '/health');
  probe('readinessProbe', '/ready');

  const preStop = (get(server, 'lifecycle', 'preStop', 'exec', 'command') ?? []) as string[];
  const sleepS = preStop[0] === 'sleep' ? Number(preStop[1]) : NaN;
  const shutdownS = Number(settings.SHUTDOWN_READINESS_DELAY_S) + Number(settings.SHUTDOWN_GRACE_S);
  const graceS = Number(get(pod, 'spec', 'terminationGracePeriodSeconds'));
  if (!(sleepS > 0)) problem(where, 'preStop must sleep, so endpoints are removed before SIGTERM');
  if (!(graceS > sleepS + shutdownS)) {
    problem(
      where,
      `terminationGracePeriodSeconds ${graceS} must exceed preStop ${sleepS} + readiness delay + grace ${shutdownS}`,
    );
  }
  if (get(pod, 'spec', 'securityContext', 'runAsNonRoot') !== true) problem(where, 'must run as non-root');
  if (get(server, 'securityContext', 'readOnlyRootFilesystem') !== true)
    problem(where, 'root file system must be read-only');
  if (get(server, 'resources', 'limits', 'memory') === undefined) problem(where, 'needs a memory limit');

  const podLabels = (get(pod, 'metadata', 'labels') ?? {}) as Record<string, string>;
  const matches = (selector: unknown) =>
    Object.entries((selector ?? {}) as Record<string, string>).every(([k, v]) => podLabels[k] === v);
  if (!matches(get(deployment, 'spec', 'selector', 'matchLabels'))) problem(where, 'selector does not match its pods');
  if (!matches(get(service, 'spec', 'selector'))) problem(label(service), 'selector does not match the pods');
  for (const r of [...byKind('PodDisruptionBudget'), ...byKind('ServiceMonitor')]) {
    if (!matches(get(r, 'spec', 'selector', 'matchLabels'))) problem(label(r), 'selector does not match the pods');
  }
  for (const hpa of byKind('HorizontalPodAutoscaler')) {
    if (get(hpa, 'spec', 'scaleTargetRef', 'name') !== deployment.metadata.name)
      problem(label(hpa), 'targets no Deployment');
  }
  const servicePorts = ((get(service, 'spec', 'ports') ?? []) as Json[]).map((p) => p.name);
  for (const monitor of byKind('ServiceMonitor')) {
    for (const endpoint of (get(monitor, 'spec', 'endpoints') ?? []) as Json[]) {
      if (!servicePorts.includes(endpoint.port))
        problem(label(monitor), `port ${String(endpoint.port)} is not the Service's`);
    }
  }

  const [migrate] = (get(job, 'spec', 'template', 'spec', 'containers') ?? []) as Json[];
  if ((migrate?.command as string[] | undefined)?.join(' ') !== 'node dist/cli/migrate.js') {
    problem(label(job), 'must run node dist/cli/migrate.js');
  }
  checkMigrationRole(deployment, job, migrateSecret);
  for (const workload of [deployment, job]) {
    for (const container of (get(workload, 'spec', 'template', 'spec', 'containers') ?? []) as Json[]) {
      for (const from of (container.envFrom ?? []) as Json[]) {
        const configMapName = text(get(from, 'configMapRef', 'name'));
        const secretName = text(get(from, 'secretRef', 'name'));
        if (configMapName !== undefined && configMapName !== configMap.metadata.name) {
          problem(label(workload), `reads ConfigMap ${configMapName}, which the base does not make`);
        }
        if (secretName !== undefined && secretName !== secret.metadata.name) {
          problem(label(workload), `reads Secret ${secretName}, which the template does not describe`);
        }
      }
    }
  }
}

/** The DATABASE_URL a container takes from a Secret's key (env over envFrom), as `secret/key`; undefined if none. */
function databaseUrlSecret(container: Json | undefined): string | undefined {
  const entry = ((container?.env ?? []) as Json[]).find((variable) => variable.name === 'DATABASE_URL');
  const ref = get(entry, 'valueFrom', 'secretKeyRef');
  return ref === undefined ? undefined : `${text(get(ref, 'name')) ?? '?'}/${text(get(ref, 'key')) ?? '?'}`;
}

/** Migrations run as the migration role (its Secret's DATABASE_URL), the server as its own role. */
function checkMigrationRole(deployment: Resource, job: Resource, migrateSecret: Resource): void {
  const wanted = `${migrateSecret.metadata.name}/DATABASE_URL`;
  const url = text(get(migrateSecret, 'stringData', 'DATABASE_URL'));
  if (url === undefined || !/^postgres(ql)?:\/\//.test(url))
    problem(label(migrateSecret), 'needs a PostgreSQL DATABASE_URL');
  const podSpec = (workload: Resource): unknown => get(workload, 'spec', 'template', 'spec');
  const [initMigrate] = (get(podSpec(deployment), 'initContainers') ?? []) as Json[];
  const [jobMigrate] = (get(podSpec(job), 'containers') ?? []) as Json[];
  const [server] = (get(podSpec(deployment), 'containers') ?? []) as Json[];
  if (databaseUrlSecret(initMigrate) !== wanted)
    problem(label(deployment), `its migrate init container must read DATABASE_URL from ${wanted}`);
  if (databaseUrlSecret(jobMigrate) !== wanted) problem(label(job), `must read DATABASE_URL from ${wanted}`);
  if (databaseUrlSecret(server) !== undefined) problem(label(deployment), 'its server must not use the migration role');
}

const rendered = execFileSync('kubectl', ['kustomize', baseDir], { encoding: 'utf8' });
const resources = parseResources(rendered, 'kubectl kustomize');
const [secret, migrateSecret] = parseResources(readFileSync(secretTemplate, 'utf8'), secretTemplate);
if (secret === undefined || migrateSecret === undefined)
  throw new Error(`${secretTemplate}: needs the server's Secret and the migration role's`);
const all = [...resources, secret, migrateSecret];
for (const resource of all) await validateSchema(resource);
typeCheck(all);
checkTogether(resources, secret, migrateSecret);

for (const resource of all) console.log(`${resource.apiVersion} ${label(resource)}`);
if (problems.length > 0) {
  console.error(`\n${problems.length} problem(s):\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  process.exit(1);
}
console.log(`kubernetes: ${all.length} resources valid (schemas, typed fields, cross-checks)`);
