import type { ExecutionResult } from 'graphql';
import type { Logger } from 'pino';
import { CodedError } from '../../errors/coded-error.js';
import { CODE } from '../../errors/registry.js';

export interface OperationLogLine {
  readonly operationName: string | undefined;
  readonly ms: number;
  readonly errorCodes: readonly string[];
}

/**
 * The log line of an operation executed for a request that has no access line (see use-operation-log.ts). At
 * info whatever its errors: an expected error is the caller's business, and an unexpected one is logged at error,
 * with its stack, where it is caught.
 */
export function logOperation(logger: Logger, line: OperationLogLine): void {
  logger.info({ ...line, ms: Math.round(line.ms) }, 'graphql operation');
}

/**
 * The codes of a result's errors as the client sees them: the result is logged before masking, so an expected
 * error still wraps its CodedError and an unexpected one has no code yet (the client sees INTERNAL_SERVER_ERROR).
 */
export function errorCodes(result: ExecutionResult): string[] {
  return (result.errors ?? []).map((error) => {
    const code = error.extensions['code'];
    if (typeof code === 'string') return code;
    const original = error.originalError;
    // instanceof leaves a generic class's parameter as any: name the type it has.
    return original instanceof CodedError ? (original as CodedError).code : CODE.INTERNAL_SERVER_ERROR;
  });
}
