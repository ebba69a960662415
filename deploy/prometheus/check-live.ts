/**
 * Asks a running Prometheus, which scrapes running instances and loads deploy/prometheus/alerts.yaml, whether
 * every alert rule evaluates and every query of the Grafana dashboard runs, and fails if any does not. Started
 * by .ci/deploy-checks, which runs the instances and Prometheus.
 *
 *   npx tsx deploy/prometheus/check-live.ts <prometheus URL> <expected targets> [dashboard.json]
 *
 * Waits (at most 90 s) until every target is up and every rule has been evaluated since; then
 * a rule must report health "ok" and no lastError, and each dashboard query (Grafana's variables given their
 * all-values form) must come back "success" from /api/v1/query. Queries with no series yet (metrics another
 * change will export) are listed, not failed: PromQL that parses and evaluates is what is checked.
 */
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

const [prometheus, expectedArg, dashboardPath = 'deploy/grafana/dashboard.json'] = process.argv.slice(2);
if (prometheus === undefined || expectedArg === undefined) {
  console.error('usage: check-live.ts <prometheus URL> <expected targets> [dashboard.json]');
  process.exit(2);
}
const expectedTargets = Number(expectedArg);

interface ApiAnswer<T> {
  readonly status: 'success' | 'error';
  readonly data: T;
  readonly error?: string;
  readonly errorType?: string;
}
interface Target {
  readonly health: string;
  readonly scrapeUrl: string;
  readonly lastError: string;
}
interface Rule {
  readonly name: string;
  readonly query: string;
  readonly health: string;
  readonly lastError?: string;
  readonly lastEvaluation: string;
}
interface Panel {
  readonly title?: string;
  readonly targets?: readonly { readonly expr?: string }[];
  readonly panels?: readonly Panel[];
}
interface Dashboard {
  readonly panels: readonly Panel[];
  readonly templating: { readonly list: readonly { readonly name: string; readonly definition?: string }[] };
}

async function api<T>(path: string): Promise<ApiAnswer<T>> {
  const response = await fetch(new URL(path, prometheus));
  return (await response.json()) as ApiAnswer<T>;
}

async function targetsAndRules(): Promise<{ targets: Target[]; rules: Rule[] }> {
  const targets = await api<{ activeTargets: Target[] }>('/api/v1/targets?state=active');
  const rules = await api<{ groups: { rules: Rule[] }[] }>('/api/v1/rules');
  return { targets: targets.data.activeTargets, rules: rules.data.groups.flatMap((group) => group.rules) };
}

const started = Date.now();
const deadline = started + 90_000;
// When every target was first seen scraped: a rule evaluated after that saw both instances' series.
let allUpAt: number | undefined;
let state = await targetsAndRules();
for (;;) {
  const up = state.targets.filter((t) => t.health === 'up');
  if (allUpAt === undefined && up.length === expectedTargets) allUpAt = Date.now();
  const evaluated =
    allUpAt !== undefined &&
    state.rules.length > 0 &&
    state.rules.every((r) => Date.parse(r.lastEvaluation) > allUpAt!);
  if (evaluated) break;
  if (Date.now() > deadline) {
    for (const t of state.targets) console.error(`target ${t.scrapeUrl}: ${t.health} ${t.lastError}`);
    console.error(`waited 90 s: ${up.length}/${expectedTargets} targets up, rules evaluated since: ${evaluated}`);
    process.exit(1);
  }
  await sleep(500);
  state = await targetsAndRules();
}
const waitedS = Math.round((Date.now() - started) / 1_000);
for (const t of state.targets)
  console.log(`target ${t.scrapeUrl}: ${t.health} (waited ${waitedS} s for scrapes and rules)`);

const failures: string[] = [];
for (const rule of state.rules) {
  const ok = rule.health === 'ok' && !rule.lastError;
  console.log(`rule ${rule.name}: ${rule.health}${rule.lastError ? ` (${rule.lastError})` : ''}`);
  if (!ok) failures.push(`rule ${rule.name}: ${rule.health} ${rule.lastError ?? ''}`);
}

// Grafana's variables as a dashboard with every value selected sends them.
const grafanaVariables: Record<string, string> = {
  __rate_interval: '1m',
  __interval: '15s',
  job: 'thai-edu-graphql',
  instance: '.*',
};
const expand = (expr: string) =>
  expr.replace(/\$\{?(\w+)\}?/g, (whole, name: string) => grafanaVariables[name] ?? whole);

const dashboard = JSON.parse(readFileSync(dashboardPath, 'utf8')) as Dashboard;
const queries: { where: string; expr: string }[] = [];
const collect = (panels: readonly Panel[]) => {
  for (const panel of panels) {
    for (const target of panel.targets ?? []) {
      if (target.expr) queries.push({ where: `panel "${panel.title ?? '?'}"`, expr: target.expr });
    }
    collect(panel.panels ?? []);
  }
};
collect(dashboard.panels);
// A variable's `label_values(<selector>, <label>)` is Grafana's; the selector in it is PromQL.
for (const variable of dashboard.templating.list) {
  const selector = /^label_values\((.+?)(?:,\s*\w+)?\)$/.exec(variable.definition ?? '')?.[1];
  if (selector !== undefined) queries.push({ where: `variable ${variable.name}`, expr: selector });
}

const empty: string[] = [];
for (const { where, expr } of queries) {
  const answer = await api<{ result: unknown[] }>(`/api/v1/query?query=${encodeURIComponent(expand(expr))}`);
  if (answer.status !== 'success') failures.push(`${where}: ${answer.errorType ?? ''} ${answer.error ?? ''}`);
  else if (answer.data.result.length === 0) empty.push(where);
}
console.log(`dashboard: ${queries.length} queries ran, ${queries.length - empty.length} with series`);
if (empty.length > 0) {
  console.log(`  no series yet (metric not exported, or no such event): ${[...new Set(empty)].join(', ')}`);
}

if (failures.length > 0) {
  console.error(`\n${failures.length} failure(s):\n${failures.map((f) => `  - ${f}`).join('\n')}`);
  process.exit(1);
}
console.log(`prometheus: ${state.rules.length} rules healthy, ${queries.length} dashboard queries evaluate`);
