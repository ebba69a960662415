import type { ExecutionResult } from 'graphql';
import type { Logger } from 'pino';

export interface OperationLogLine {
  readonly operationName: string | undefined;
  readonly ms: number;
  readonly errorCodes: readonly string[];
  /** Set when the response cache answered, without executing. */
  readonly responseCache?: 'hit';
}

/**
 * The one log line of an operation, whichever path answered it: a warning when its result has errors.
 * `bindings` are the request's fields for a logger that does not carry them already (no child per request).
 */
export function logOperation(
  logger: Logger,
  line: OperationLogLine,
  bindings: Readonly<Record<string, unknown>> = {},
): void {
  const level = line.errorCodes.length === 0 ? 'info' : 'warn';
  logger[level]({ ...bindings, ...line, ms: Math.round(line.ms) }, 'graphql operation');
}

/** The codes of a result's errors, `UNKNOWN` for an error without one. */
export function errorCodes(result: ExecutionResult): string[] {
  return (result.errors ?? []).map((error) => {
    const code = error.extensions['code'];
    return typeof code === 'string' ? code : 'UNKNOWN';
  });
}
