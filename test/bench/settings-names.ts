/**
 * `BENCH_ONLY=settings-names` (seconds, no server): what the check of misspelt variable names costs a start with
 * 127 variables in the environment, a pod's usual, as CPU time. Each sample is a fresh process (the start pays a
 * cold check, before the JIT has seen it), and the same process then repeats the check warm.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { unknownNames } from '../../src/config/misspellings.js';

/** Kubernetes' links of ten Services in the namespace: seven variables each. */
const SERVICE_LINKS = [
  'REDIS',
  'POSTGRES',
  'WEB',
  'API_GATEWAY',
  'AUTH',
  'GRAFANA',
  'LOKI',
  'TEMPO',
  'MINIO',
  'SEARCH',
].flatMap((service, index) => {
  const port = 6_000 + index;
  return [
    `${service}_SERVICE_HOST`,
    `${service}_SERVICE_PORT`,
    `${service}_PORT`,
    `${service}_PORT_${port}_TCP`,
    `${service}_PORT_${port}_TCP_PROTO`,
    `${service}_PORT_${port}_TCP_PORT`,
    `${service}_PORT_${port}_TCP_ADDR`,
  ];
});

/** Ours as a deployment sets them, the image's, and a ConfigMap shared with other apps: 57 with the links' 70. */
const OURS = [
  ...['NODE_ENV', 'HOST', 'PORT', 'DATABASE_URL', 'REDIS_URL', 'UPSTREAM_BASE_URL', 'UPSTREAM_API_KEY'],
  ...['ADMIN_TOKEN', 'LOG_LEVEL', 'OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_SERVICE_NAME', 'TRUST_PROXY'],
];
const FOREIGN = [
  ...['PATH', 'HOME', 'HOSTNAME', 'TERM', 'LANG', 'NODE_VERSION', 'YARN_VERSION', 'TZ', 'PWD', 'SHLVL'],
  ...['KUBERNETES_SERVICE_HOST', 'KUBERNETES_SERVICE_PORT', 'KUBERNETES_SERVICE_PORT_HTTPS', 'KUBERNETES_PORT'],
  ...['KUBERNETES_PORT_443_TCP', 'KUBERNETES_PORT_443_TCP_PROTO', 'KUBERNETES_PORT_443_TCP_PORT'],
  ...['KUBERNETES_PORT_443_TCP_ADDR', 'APP_NAME', 'APP_VERSION', 'APP_ENVIRONMENT', 'SENTRY_DSN'],
  ...['SENTRY_ENVIRONMENT', 'SENTRY_RELEASE', 'FEATURE_FLAGS_URL', 'MAIL_SMTP_HOST', 'MAIL_SMTP_PORT'],
  ...['MAIL_FROM_ADDRESS', 'S3_BUCKET', 'S3_REGION', 'S3_ENDPOINT', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'],
  ...['AWS_DEFAULT_REGION', 'JWT_ISSUER', 'JWT_AUDIENCE', 'SESSION_SECRET', 'COOKIE_DOMAIN', 'PUBLIC_BASE_URL'],
  ...['CDN_BASE_URL', 'GOOGLE_ANALYTICS_ID', 'MAINTENANCE_MODE', 'SUPPORT_EMAIL', 'PAYMENT_API_URL'],
  ...['PAYMENT_WEBHOOK_SECRET'],
];

/** The pod's 127 variables; and 127 other software's names, none a service link (each compared with every setting). */
export const POD_ENVIRONMENT: Readonly<Record<string, string>> = Object.fromEntries(
  [...SERVICE_LINKS, ...OURS, ...FOREIGN].map((name) => [name, 'x']),
);
export const UNRELATED_ENVIRONMENT: Readonly<Record<string, string>> = Object.fromEntries(
  Array.from({ length: 127 }, (_, i) => [
    `${FOREIGN[i % FOREIGN.length] ?? 'X'}_${String.fromCharCode(65 + (i % 26))}`,
    'x',
  ]),
);

export interface SettingsNamesRow {
  readonly environment: string;
  readonly variables: number;
  /** CPU time of the first check in a fresh process, as a start pays it: median, min and max over the samples. */
  readonly coldMs: readonly [number, number, number];
  /** CPU time of the same check repeated in that process once the JIT has it: median of the medians. */
  readonly warmMs: number;
}

const ENVIRONMENTS = { pod: POD_ENVIRONMENT, unrelated: UNRELATED_ENVIRONMENT } as const;

/** CPU time (user and system, ms) of this process while `work` runs: on a shared machine, steadier than wall time. */
function cpuMs(work: () => void): number {
  const before = process.cpuUsage();
  work();
  const { user, system } = process.cpuUsage(before);
  return (user + system) / 1_000;
}

/** One sample, in this process: the cold check, then the median of 50 warm ones. */
function sample(environment: keyof typeof ENVIRONMENTS): { coldMs: number; warmMs: number } {
  const env = ENVIRONMENTS[environment];
  const coldMs = cpuMs(() => unknownNames(env));
  const warm = Array.from({ length: 50 }, () => cpuMs(() => unknownNames(env)));
  return { coldMs, warmMs: median(warm) };
}

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;

/** `samples` fresh processes per environment. */
export function measureSettingsNames(samples = 7): SettingsNamesRow[] {
  return (Object.keys(ENVIRONMENTS) as (keyof typeof ENVIRONMENTS)[]).map((environment) => {
    const runs = Array.from({ length: samples }, () => {
      const out = execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
        env: { ...process.env, SETTINGS_NAMES_SAMPLE: environment },
        encoding: 'utf8',
      });
      return JSON.parse(out) as { coldMs: number; warmMs: number };
    });
    const cold = runs.map((run) => run.coldMs).sort((a, b) => a - b);
    return {
      environment,
      variables: Object.keys(ENVIRONMENTS[environment]).length,
      coldMs: [median(cold), cold[0] ?? 0, cold.at(-1) ?? 0],
      warmMs: median(runs.map((run) => run.warmMs)),
    };
  });
}

export function settingsNamesTable(rows: readonly SettingsNamesRow[]): string[] {
  const ms = (value: number): string => value.toFixed(2);
  return [
    '| environment | variables | cold check, CPU ms (median, min–max) | warm check, CPU ms |',
    '|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| ${row.environment} | ${row.variables} | ${ms(row.coldMs[0])} (${ms(row.coldMs[1])}–${ms(row.coldMs[2])}) | ${ms(row.warmMs)} |`,
    ),
  ];
}

const child = process.env['SETTINGS_NAMES_SAMPLE'];
if (child === 'pod' || child === 'unrelated') process.stdout.write(JSON.stringify(sample(child)));
