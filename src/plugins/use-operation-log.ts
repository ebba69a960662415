import type { Plugin } from 'graphql-yoga';
import { getOperationAST, type DocumentNode, type ExecutionResult } from 'graphql';
import { isSingleResult } from './execution-result.js';
import type { Logger } from 'pino';
import type { Context } from '../context.js';

/**
 * One log line per executed operation: its name, duration and the error codes in its result, tied to the
 * request id. Variables and payloads are not logged: they may be large, and the id is enough to correlate.
 */
export function useOperationLog(): Plugin<Context> {
  return {
    onExecute({ args }) {
      const started = performance.now();
      // envelop types its arguments loosely (it supports several graphql versions); these are graphql 16's.
      const document = args.document as DocumentNode;
      const operationName = getOperationAST(document, args.operationName as string | null | undefined)?.name?.value;
      return {
        onExecuteDone({ result }) {
          const codes = isSingleResult(result) ? errorCodes(result) : [];
          logOperation(args.contextValue.logger, { operationName, ms: performance.now() - started, errorCodes: codes });
        },
      };
    },
  };
}

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
export function logOperation(logger: Logger, line: OperationLogLine, bindings: Readonly<Record<string, unknown>> = {}): void {
  const level = line.errorCodes.length === 0 ? 'info' : 'warn';
  logger[level]({ ...bindings, ...line, ms: Math.round(line.ms) }, 'graphql operation');
}

function errorCodes(result: ExecutionResult): string[] {
  return (result.errors ?? []).map((error) => {
    const code = error.extensions['code'];
    return typeof code === 'string' ? code : 'UNKNOWN';
  });
}
