import { CodedError } from '../errors/coded-error.js';
import { CODE } from '../errors/registry.js';

/**
 * Resolves one `_entities` representation by the first of its key fields it carries. Always a promise, so a
 * representation without any key (or with a key that is not text or a number) fails alone, at `[_entities, i]`:
 * @apollo/subgraph's resolver maps the representations synchronously, and a throw there would fail them all.
 */
export function entityReference<T>(
  representation: object,
  keys: readonly string[],
  find: (...values: (string | undefined)[]) => T | null,
): Promise<T | null> {
  const values = keys.map((key) => {
    const value: unknown = (representation as Record<string, unknown>)[key];
    return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
  });
  if (values.every((value) => value === undefined)) {
    const typename = (representation as { __typename?: unknown }).__typename;
    return Promise.reject(
      new CodedError(
        CODE.BAD_USER_INPUT,
        `A ${String(typename).slice(0, 40)} representation needs its key: ${keys.join(' or ')}.`,
      ),
    );
  }
  return Promise.resolve(find(...values));
}
