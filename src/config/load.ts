import { CONFLICTS, redisOnlyWithoutRedis } from './conflicts.js';
import { unknownNames } from './misspellings.js';
import {
  flatten,
  isSetting,
  SETTINGS,
  STORE_SETTINGS,
  type Config,
  type LogLevel,
  type SettingTree,
  type StoreConfig,
  type ValuesOf,
} from './settings.js';

export type LoadResult<T> =
  | { ok: true; config: T; warnings: string[] }
  | {
      ok: false;
      problems: string[];
      warnings: string[];
      /** LOG_LEVEL when it parsed, else its default: the level the problems are reported at. */
      logLevel: LogLevel;
    };
export type ConfigResult = LoadResult<Config>;

function parseTree(tree: SettingTree, env: NodeJS.ProcessEnv, problems: string[], failed: Set<string>): unknown {
  const values: Record<string, unknown> = {};
  for (const [key, node] of Object.entries(tree)) {
    if (!isSetting(node)) {
      values[key] = parseTree(node, env, problems, failed);
      continue;
    }
    const given = env[node.env]?.trim();
    const text = given === undefined || given === '' ? node.default : given;
    if (text === undefined) {
      values[key] = undefined;
      continue;
    }
    const parsed = node.schema.safeParse(text);
    if (parsed.success) {
      values[key] = parsed.data;
      continue;
    }
    problems.push(...parsed.error.issues.map((issue) => `${node.env}: ${issue.message}`));
    failed.add(node.env);
    // The default stands in, so the checks of conflicts get a whole Config; they skip what reads this one.
    values[key] = node.default === undefined ? undefined : node.schema.parse(node.default);
  }
  return values;
}

/**
 * Parses the settings of `tree` from the environment; on failure lists every problem at once, each naming its
 * variable. In production (NODE_ENV=production) a variable that looks like ours but is not, or a Redis-only setting
 * without REDIS_URL, stops the start; in development it is a warning, because a developer's shell carries other
 * projects' variables (CACHE_DIR, HTTP_PORT…) and a default there costs nothing but the warning the start prints.
 * A conflict is checked when every variable it reads is in the tree (a narrower tree has fewer to honour).
 */
function loadSettings<Tree extends SettingTree & typeof STORE_SETTINGS>(
  tree: Tree,
  env: NodeJS.ProcessEnv,
): LoadResult<ValuesOf<Tree>> {
  const problems: string[] = [];
  const warnings: string[] = [];
  const failed = new Set<string>();
  // Parsed from the tree it declares, so the value has the shape ValuesOf<Tree> says.
  const config = parseTree(tree, env, problems, failed) as ValuesOf<Tree>;
  // Every tree holds the store's settings (its type says so), NODE_ENV and LOG_LEVEL among them.
  const { nodeEnv, logLevel } = config as unknown as StoreConfig;
  const production = nodeEnv === 'production';
  const read = new Set(flatten(tree).map((s) => s.env));
  const suspicious = [...unknownNames(env), ...redisOnlyWithoutRedis(env)];
  (production ? problems : warnings).push(...suspicious);
  for (const conflict of CONFLICTS) {
    if (!conflict.reads.every((name) => read.has(name)) || conflict.reads.some((name) => failed.has(name))) continue;
    // Every variable it reads is in the tree, so the parts of Config it looks at are there.
    const found = conflict.check(config as unknown as Config, env);
    if (found !== undefined) (found.level === 'error' ? problems : warnings).push(found.message);
  }
  return problems.length > 0
    ? { ok: false, problems, warnings, logLevel: failed.has(SETTINGS.logLevel.env) ? 'info' : logLevel }
    : { ok: true, config, warnings };
}

/** The server's whole configuration (see loadSettings). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ConfigResult {
  return loadSettings(SETTINGS, env);
}

/**
 * The operator commands' configuration: STORE_SETTINGS only, with the same checks of names and values, so a
 * misspelt DATABASE_URL still stops them while an unset UPSTREAM_BASE_URL does not.
 */
export function loadStoreConfig(env: NodeJS.ProcessEnv = process.env): LoadResult<StoreConfig> {
  return loadSettings(STORE_SETTINGS, env);
}
