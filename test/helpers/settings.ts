import { loadConfig, type Config } from '../../src/config.js';

/** Every setting at its default: the configuration of an empty environment, from the one declaration. */
export const DEFAULTS: Config = (() => {
  const loaded = loadConfig({});
  if (!loaded.ok) throw new Error(loaded.problems.join('; '));
  return loaded.config;
})();

/** What openAccessService needs besides the URL and the token, at the defaults. */
export const STORE_SETTINGS = { keys: DEFAULTS.keys, postgres: DEFAULTS.database };
