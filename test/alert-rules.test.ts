import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

const RULES = fileURLToPath(new URL('../deploy/prometheus/alerts.yaml', import.meta.url));
const RULE_TESTS = fileURLToPath(new URL('../deploy/prometheus/alerts.test.yaml', import.meta.url));

function promtoolFound(): boolean {
  try {
    execFileSync('promtool', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const PROMTOOL = promtoolFound();
if (!PROMTOOL)
  console.warn('alert-rules: promtool is not on PATH, its rule tests are skipped (Debian: apt-get install prometheus)');

interface RuleFile {
  groups: { rules: { alert?: string }[] }[];
}
interface RuleTests {
  tests: { alert_rule_test?: { alertname: string; exp_alerts: unknown[] }[] }[];
}

describe('the alert rules (deploy/prometheus/alerts.yaml)', () => {
  it('each have a promtool scenario in which they fire', () => {
    const alerts = (parse(readFileSync(RULES, 'utf8')) as RuleFile).groups.flatMap((group) =>
      group.rules.flatMap((rule) => (rule.alert === undefined ? [] : [rule.alert])),
    );
    const firing = new Set(
      (parse(readFileSync(RULE_TESTS, 'utf8')) as RuleTests).tests.flatMap((test) =>
        (test.alert_rule_test ?? []).filter((check) => check.exp_alerts.length > 0).map((check) => check.alertname),
      ),
    );
    expect(alerts.filter((alert) => !firing.has(alert))).toEqual([]);
  });

  it.skipIf(!PROMTOOL)('pass promtool test rules', () => {
    const run = spawnSync('promtool', ['test', 'rules', RULE_TESTS], { encoding: 'utf8' });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('SUCCESS');
  });
});
