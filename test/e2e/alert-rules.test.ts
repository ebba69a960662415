import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

const RULES = fileURLToPath(new URL('../../deploy/prometheus/alerts.yaml', import.meta.url));
const RULE_TESTS = ['alerts.test.yaml', 'alerts.daily.test.yaml'].map((file) =>
  fileURLToPath(new URL(`../../deploy/prometheus/${file}`, import.meta.url)),
);

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
  groups: { rules: { alert?: string; annotations?: { runbook?: string } }[] }[];
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
      RULE_TESTS.flatMap((file) => (parse(readFileSync(file, 'utf8')) as RuleTests).tests).flatMap((test) =>
        (test.alert_rule_test ?? []).filter((check) => check.exp_alerts.length > 0).map((check) => check.alertname),
      ),
    );
    expect(alerts.filter((alert) => !firing.has(alert))).toEqual([]);
  });

  it('each name a runbook that exists', () => {
    const rules = (parse(readFileSync(RULES, 'utf8')) as RuleFile).groups.flatMap((group) => group.rules);
    const withoutRunbook = rules
      .filter((rule) => rule.alert !== undefined)
      .filter((rule) => {
        const runbook = rule.annotations?.runbook;
        return runbook === undefined || !existsSync(fileURLToPath(new URL(`../../${runbook}`, import.meta.url)));
      })
      .map((rule) => rule.alert);
    expect(withoutRunbook).toEqual([]);
  });

  // promtool takes 2 s alone and several times that beside the other suites on a loaded machine: run it without
  // holding the event loop, under a bound of its own.
  it.skipIf(!PROMTOOL)(
    'pass promtool test rules',
    async () => {
      const run = await new Promise<{ failed: boolean; output: string }>((settle) => {
        execFile('promtool', ['test', 'rules', ...RULE_TESTS], { encoding: 'utf8' }, (error, stdout, stderr) => {
          settle({ failed: error !== null, output: stdout + stderr });
        });
      });
      expect(run.failed, run.output).toBe(false);
      expect(run.output.match(/SUCCESS/g)).toHaveLength(RULE_TESTS.length);
    },
    90_000,
  );
});
