import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAdmin } from '../../src/cli/admin-commands.js';
import { CONFIGURATION_DOC, withSettingsTable } from '../../src/cli/settings-docs.js';
import { openAccessService } from '../../src/access/service.js';
import { KNOWN_NAMES, KNOWN_PREFIXES, loadConfig, loadStoreConfig, SETTING_LIST } from '../../src/config.js';
import { editDistance, unknownNames } from '../../src/config/misspellings.js';
import { runMain } from '../helpers/server-process.js';
import { STORE_SETTINGS } from '../helpers/settings.js';

const problemsOf = (env: NodeJS.ProcessEnv): string[] => {
  const loaded = loadConfig(env);
  return loaded.ok ? [] : loaded.problems;
};
const PRODUCTION = {
  NODE_ENV: 'production',
  UPSTREAM_BASE_URL: 'https://opendata.example.go.th:8888',
  UPSTREAM_API_KEY: 'k',
};

describe('the declaration of the settings', () => {
  it('is what docs/operators/configuration.md shows (npm run docs:settings regenerates it)', () => {
    const document = readFileSync(CONFIGURATION_DOC, 'utf8');
    expect(withSettingsTable(document), 'the table is stale: run npm run docs:settings').toBe(document);
    for (const { env } of SETTING_LIST) expect(document).toContain(`| \`${env}\` |`);
  });

  it('declares each name once, every default valid, with the names this round fixed', () => {
    expect(KNOWN_NAMES.size).toBe(SETTING_LIST.length);
    expect(loadConfig({})).toMatchObject({ ok: true, warnings: [] });
    const defaults = Object.fromEntries(SETTING_LIST.map((s) => [s.env, s.default]));
    expect(defaults).toMatchObject({
      SHUTDOWN_GRACE_S: '25',
      SHUTDOWN_READINESS_DELAY_S: '5',
      MIGRATE_ON_START: 'true',
      DATABASE_POOL_MAX: '10',
      DATABASE_CONNECT_TIMEOUT_MS: '5000',
      DATABASE_STATEMENT_TIMEOUT_MS: '5000',
      PORTAL: 'true',
      UPSTREAM: undefined,
      REDIS_KEY_PREFIX: undefined,
    });
    expect(KNOWN_NAMES).toContain('HTTP_MAX_CONNECTIONS_PER_IP');
    expect(KNOWN_NAMES).toContain('UPSTREAM_MAX_BODY_MB');
    expect(KNOWN_PREFIXES).toEqual(expect.arrayContaining(['UPSTREAM_', 'DATABASE_', 'REDIS_', 'HTTP_', 'LIMIT_']));
    expect(KNOWN_PREFIXES).not.toContain('OTEL_');
  });
});

describe('names that look like ours but are not', () => {
  const TYPOS = {
    DATABSE_URL: 'postgres://app@db/edu',
    REDIS_ULR: 'redis://redis:6379',
    UPSTREAM_BASEURL: 'https://opendata.example.go.th:8888',
    ADMIN_TOKN: 'an-operator-token-of-some-length',
    RATE_LIMIT_POINT: '100',
  };

  it('stop a production start, each with the nearest known name, beside every other problem', () => {
    expect(problemsOf({ ...PRODUCTION, ...TYPOS, PORT: 'eighty' })).toEqual([
      'PORT: Invalid input: expected number, received NaN',
      'DATABSE_URL: not a setting of this server; did you mean DATABASE_URL?',
      'REDIS_ULR: not a setting of this server; did you mean REDIS_URL?',
      'UPSTREAM_BASEURL: not a setting of this server; did you mean UPSTREAM_BASE_URL?',
      'ADMIN_TOKN: not a setting of this server; did you mean ADMIN_TOKEN?',
      'RATE_LIMIT_POINT: not a setting of this server; did you mean RATE_LIMIT_POINTS?',
    ]);
  });

  it('are warnings in development, where a shell carries other projects’ variables', () => {
    const loaded = loadConfig(TYPOS);
    expect(loaded.ok).toBe(true);
    expect(loaded.warnings).toHaveLength(Object.keys(TYPOS).length);
    expect(loaded.warnings[0]).toBe('DATABSE_URL: not a setting of this server; did you mean DATABASE_URL?');
  });

  it('leave alone other software’s variables and those Kubernetes injects for services', () => {
    const loaded = loadConfig({
      ...PRODUCTION,
      HOME: '/home/app',
      HOSTNAME: 'pod-1',
      POST: 'x',
      HTTP_PROXY: 'http://proxy:3128',
      https_proxy: 'http://proxy:3128',
      NODE_OPTIONS: '--enable-source-maps',
      OTEL_SERVICE_NAME: 'thai-edu-graphql',
      REDIS_PORT: 'tcp://10.0.0.7:6379',
      REDIS_SERVICE_HOST: '10.0.0.7',
      REDIS_PORT_6379_TCP_ADDR: '10.0.0.7',
    });
    expect(loaded).toMatchObject({ ok: true, warnings: [] });
  });

  it('include a Redis-only setting without REDIS_URL', () => {
    expect(problemsOf({ ...PRODUCTION, REDIS_KEY_PREFIX: 'edu:', WATCH_LEASE_S: '5' })).toEqual([
      'REDIS_KEY_PREFIX: only used with Redis, and REDIS_URL is unset (each instance would keep its own state)',
      'WATCH_LEASE_S: only used with Redis, and REDIS_URL is unset (each instance would keep its own state)',
    ]);
    expect(problemsOf({ ...PRODUCTION, REDIS_KEY_PREFIX: 'edu:', REDIS_URL: 'redis://redis:6379' })).toEqual([]);
  });
});

describe('the check of names, which passes over most pairs on their lengths', () => {
  // Short names (under 6 characters) take exact matches only, those under 10 one edit, the rest two.
  const allowed = (known: string): number => (known.length < 6 ? 0 : known.length < 10 ? 1 : 2);
  /** Every known name compared, whatever its length: the nearest of those the variable is near enough to. */
  const everyPair = (name: string): string | undefined => {
    let nearest: { known: string; distance: number } | undefined;
    for (const known of KNOWN_NAMES) {
      const distance = editDistance(name.toUpperCase(), known, allowed(known));
      if (distance <= allowed(known) && (nearest === undefined || distance < nearest.distance))
        nearest = { known, distance };
    }
    return nearest?.known;
  };
  const edits = (name: string): string[] => {
    const middle = name.length >> 1;
    const at = (i: number): string => name[i] ?? '';
    return [
      name.slice(0, middle) + name.slice(middle + 1), // a letter left out
      `${name.slice(0, middle)}Q${name.slice(middle)}`, // one too many
      `${name.slice(0, middle)}Q${name.slice(middle + 1)}`, // one wrong
      name.slice(0, middle) + at(middle + 1) + at(middle) + name.slice(middle + 2), // two swapped
      `${name.slice(1, -1)}`, // two left out, at either end
      `${name.toLowerCase()}`, // the case alone
    ];
  };

  it('finds a misspelling of every setting that allows one, as comparing every pair in full would', () => {
    const typos = SETTING_LIST.filter((s) => allowed(s.env) > 0)
      .flatMap((s) => edits(s.env).map((typo) => ({ typo, of: s.env })))
      .filter(({ typo }) => !KNOWN_NAMES.has(typo) && !/_(SERVICE_HOST|SERVICE_PORT|PORT)/.test(typo));
    expect(typos.length).toBeGreaterThan(300);
    for (const { typo, of } of typos) {
      const [found] = unknownNames({ [typo]: 'x' });
      if (editDistance(typo.toUpperCase(), of) <= allowed(of)) expect(found, typo).toBeDefined();
      const inFamily = KNOWN_PREFIXES.some((prefix) => typo.toUpperCase().startsWith(prefix));
      const expected = everyPair(typo);
      if (expected !== undefined)
        expect(found, typo).toBe(`${typo}: not a setting of this server; did you mean ${expected}?`);
      else expect(found === undefined || inFamily, typo).toBe(true);
    }
  });

  it('names a longer setting one edit away, though a short one is as near (PORTA: PORT and PORTAL)', () => {
    expect(unknownNames({ PORTA: 'true', HOME: '/', POST: 'x', HOSTS: 'a' })).toEqual([
      'PORTA: not a setting of this server; did you mean PORTAL?',
    ]);
  });

  it('measures distance with swaps, stopping once it is past the bound asked for', () => {
    expect(editDistance('DATABSE_URL', 'DATABASE_URL')).toBe(1);
    expect(editDistance('AB', 'BA')).toBe(1);
    expect(editDistance('ABCDEF', 'UVWXYZ')).toBe(6);
    expect(editDistance('ABCDEF', 'UVWXYZ', 2)).toBe(3);
    let seed = 7;
    const random = (): number => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
    const word = (): string =>
      Array.from({ length: 1 + Math.floor(random() * 9) }, () => 'ABC_'[Math.floor(random() * 4)]).join('');
    for (let i = 0; i < 2_000; i += 1) {
      const [a, b, bound] = [word(), word(), Math.floor(random() * 4)];
      expect(editDistance(a, b, bound), `${a} ${b} ${bound}`).toBe(Math.min(editDistance(a, b), bound + 1));
    }
  });
});

describe('settings that cannot hold together', () => {
  it.each([
    [
      { SUBSCRIPTION_MAX_TOTAL: '900', HTTP_MAX_CONNECTIONS: '500' },
      'SUBSCRIPTION_MAX_TOTAL: 900 is above HTTP_MAX_CONNECTIONS (500)',
    ],
    [
      { RESPONSE_MAX_MB: '64', RESPONSE_IN_FLIGHT_MAX_MB: '32' },
      'RESPONSE_IN_FLIGHT_MAX_MB: must be at least RESPONSE_MAX_MB',
    ],
    [
      { UPSTREAM_TIMEOUT_MS: '30000' },
      'UPSTREAM_TIMEOUT_MS: 30000 ms is longer than a shutdown leaves requests to finish',
    ],
    [{ SHUTDOWN_GRACE_S: '5' }, 'SHUTDOWN_READINESS_DELAY_S: must be below SHUTDOWN_GRACE_S'],
    [{ UPSTREAM: 'simulator', UPSTREAM_BASE_URL: 'https://host:8888' }, 'UPSTREAM: simulator asks for the simulator'],
    [{ ADMIN_LISTEN_PORT: '4000' }, "ADMIN_LISTEN_PORT: 4000 is PORT too; the operators' listener needs its own"],
  ])('refuses %j', (env, message) => {
    const problems = problemsOf(env);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(message);
  });

  it('accepts them at their bounds (no bound on connections lets any subscription total through)', () => {
    expect(problemsOf({ SUBSCRIPTION_MAX_TOTAL: '5000', HTTP_MAX_CONNECTIONS: '0' })).toEqual([]);
    expect(problemsOf({ RESPONSE_MAX_MB: '64', RESPONSE_IN_FLIGHT_MAX_MB: '64' })).toEqual([]);
    expect(problemsOf({ UPSTREAM_TIMEOUT_MS: '20000' })).toEqual([]);
    expect(problemsOf({ ADMIN_LISTEN_PORT: '4000', ADMIN_LISTEN_HOST: '10.0.0.7' })).toEqual([]);
    expect(problemsOf({ ADMIN_LISTEN_PORT: '0', PORT: '0' })).toEqual([]);
  });

  it('warns when the summaries cannot work: an upstream address without its key', () => {
    const loaded = loadConfig({ UPSTREAM_BASE_URL: 'https://host:8888' });
    expect(loaded.ok).toBe(true);
    expect(loaded.warnings).toEqual([expect.stringContaining('UPSTREAM_API_KEY: unset while UPSTREAM_BASE_URL')]);
  });

  it('refuses production without an upstream unless the simulator is asked for by name', () => {
    expect(problemsOf({ NODE_ENV: 'production' })).toEqual([
      'UPSTREAM_BASE_URL: required in production; the simulator serves made-up figures and runs only when asked for by name (UPSTREAM=simulator)',
    ]);
    expect(loadConfig({ NODE_ENV: 'production', UPSTREAM: 'simulator' })).toMatchObject({ ok: true, warnings: [] });
    expect(problemsOf({ UPSTREAM: 'simulated' })).toEqual(['UPSTREAM: Invalid input: expected "simulator"']);
  });
});

describe('DATABASE_URL', () => {
  it.each([
    'postgres://app:Xy7@Kq9Lm2/Zt@db.example/edu',
    'postgres://app:Xy7#Kq9@db.example/edu',
    'postgresql://app:a:b/c@db/edu',
  ])('refuses %s, saying to percent-encode and echoing nothing of it', (url) => {
    const problems = problemsOf({ DATABASE_URL: url });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^DATABASE_URL: .*percent-encode/);
    expect(problems[0]).not.toMatch(/Xy7|Kq9|Zt|app:|db\.example/);
  });

  it('accepts the same password percent-encoded, and reads the pool settings', () => {
    const loaded = loadConfig({
      DATABASE_URL: `postgres://app:${encodeURIComponent('Xy7@Kq9Lm2/Zt')}@db.example/edu`,
      DATABASE_POOL_MAX: '4',
      DATABASE_STATEMENT_TIMEOUT_MS: '2000',
      DATABASE_OPERATION_TIMEOUT_MS: '3000',
      MIGRATE_ON_START: 'false',
    });
    expect(loaded.ok && loaded.config.database).toEqual({
      poolMax: 4,
      connectTimeoutMs: 5_000,
      statementTimeoutMs: 2_000,
      operationTimeoutMs: 3_000,
      migrateOnStart: false,
    });
  });

  it('what the driver says about a connection reaches the log without any fragment of the user part', async () => {
    // Past the configuration check (a caller of the store directly): the driver takes Kq9Lm2, a piece of the
    // password, for the host name, and says so in its error.
    const error: unknown = await openAccessService({
      ...STORE_SETTINGS,
      postgres: { ...STORE_SETTINGS.postgres, connectTimeoutMs: 2_000 },
      databaseUrl: 'postgres://app:Xy7@Kq9Lm2/Zt@db.invalid/edu',
      adminToken: undefined,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    const seen: string[] = [];
    for (let at: unknown = error; at instanceof Error; at = at.cause) seen.push(at.message, at.stack ?? '');
    expect(seen.join('\n')).toContain('[redacted]');
    expect(seen.join('\n')).not.toMatch(/Xy7|Kq9Lm2|Zt@/);
  });
});

describe('the admin CLI', () => {
  const io = (env: Record<string, string>) => {
    const output = { stdout: '', stderr: '' };
    return {
      output,
      io: {
        env,
        stdout: { write: (text: string) => (output.stdout += text) },
        stderr: { write: (text: string) => (output.stderr += text) },
      },
    };
  };

  it('refuses to create a store, naming the path and the variable', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'teg-admin-')), 'absent.db');
    const run = io({ DATABASE_URL: `sqlite:${path}` });
    expect(await runAdmin(['list'], run.io)).toBe(1);
    expect(run.output.stderr).toBe(
      `admin: no store at ${path} (DATABASE_URL); set DATABASE_URL to the server's store\n`,
    );
    expect(() => readFileSync(path)).toThrow();
  });

  it('names the store it opened', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'teg-admin-')), 'present.db');
    await (
      await openAccessService({ ...STORE_SETTINGS, databaseUrl: `sqlite:${path}`, adminToken: undefined })
    ).close();
    const run = io({ DATABASE_URL: `sqlite:${path}` });
    expect(await runAdmin(['list'], run.io)).toBe(0);
    expect(run.output.stderr).toBe(`admin: store sqlite:${path}\n`);
  });

  it('stops on a misspelt variable in production, as the server does', async () => {
    const run = io({ ...PRODUCTION, DATABSE_URL: 'postgres://app@db/edu' });
    expect(await runAdmin(['list'], run.io)).toBe(1);
    expect(run.output.stderr).toContain('DATABSE_URL: not a setting of this server; did you mean DATABASE_URL?');
  });
});

describe('node src/main.ts in production with misspelt names', () => {
  it('exits 1 before listening, listing every problem with the nearest known name', async () => {
    const child = runMain({
      NODE_ENV: 'production',
      DATABSE_URL: 'postgres://app@db/edu',
      REDIS_ULR: 'redis://redis:6379',
      UPSTREAM_BASEURL: 'https://opendata.example.go.th:8888',
      ADMIN_TOKN: 'an-operator-token-of-some-length',
    });
    const code = await child.exited();
    const output = child.output();
    expect(code).toBe(1);
    expect(output).toContain('invalid configuration');
    for (const [typo, known] of [
      ['DATABSE_URL', 'DATABASE_URL'],
      ['REDIS_ULR', 'REDIS_URL'],
      ['UPSTREAM_BASEURL', 'UPSTREAM_BASE_URL'],
      ['ADMIN_TOKN', 'ADMIN_TOKEN'],
    ]) {
      expect(output).toContain(`${typo}: not a setting of this server; did you mean ${known}?`);
    }
    expect(output).toContain('UPSTREAM_BASE_URL: required in production');
    expect(output).not.toContain('ready at');
    // One JSON line, as every other line the server writes, on stdout with them.
    expect(child.stderr()).toBe('');
    const lines = child
      .stdout()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toEqual([
      expect.objectContaining({ level: 60, msg: 'invalid configuration', problems: expect.any(Array) as unknown }),
    ]);
  });
});

describe('NODE_ENV', () => {
  it('takes development, test and production only: prod or Production would silently turn the checks off', () => {
    for (const nodeEnv of ['prod', 'Production', 'staging']) {
      expect(problemsOf({ NODE_ENV: nodeEnv })).toEqual([
        'NODE_ENV: must be one of development, test, production (production turns the strict checks on)',
      ]);
    }
    for (const nodeEnv of ['development', 'test']) expect(loadConfig({ NODE_ENV: nodeEnv }).ok).toBe(true);
    expect(loadConfig({ ...PRODUCTION }).ok).toBe(true);
  });
});

describe("the operator commands' settings (loadStoreConfig)", () => {
  it('need the store only: no upstream in production', () => {
    const loaded = loadStoreConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://app@db/edu' });
    expect(loaded).toMatchObject({
      ok: true,
      warnings: [],
      config: { nodeEnv: 'production', databaseUrl: 'postgres://app@db/edu', database: { migrateOnStart: true } },
    });
    expect(loaded.ok && Object.keys(loaded.config)).toEqual([
      'nodeEnv',
      'logLevel',
      'databaseUrl',
      'database',
      'keys',
      'cache',
    ]);
  });

  it("keep the server's checks of names and values", () => {
    expect(loadStoreConfig({ NODE_ENV: 'production', DATABSE_URL: 'postgres://app@db/edu' })).toMatchObject({
      ok: false,
      problems: ['DATABSE_URL: not a setting of this server; did you mean DATABASE_URL?'],
    });
    expect(loadStoreConfig({ DATABASE_URL: 'mysql://db/edu', NODE_ENV: 'prod' })).toMatchObject({
      ok: false,
      problems: [
        'NODE_ENV: must be one of development, test, production (production turns the strict checks on)',
        'DATABASE_URL: must be sqlite:<path> or a postgres:// URL',
      ],
    });
    // The server's settings are still known names beside them (a Job may share the server's environment).
    expect(loadStoreConfig({ ...PRODUCTION, DATABASE_URL: 'sqlite:x.db' }).ok).toBe(true);
  });
});
