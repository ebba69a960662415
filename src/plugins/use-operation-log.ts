import type { Plugin } from 'graphql-yoga';
import { getOperationAST, type DocumentNode, type ExecutionResult } from 'graphql';
import { isSingleResult } from './execution-result.js';
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
          const ms = Math.round(performance.now() - started);
          const codes = isSingleResult(result) ? errorCodes(result) : [];
          const level = codes.length === 0 ? 'info' : 'warn';
          args.contextValue.logger[level]({ operationName, ms, errorCodes: codes }, 'graphql operation');
        },
      };
    },
  };
}

function errorCodes(result: ExecutionResult): string[] {
  return (result.errors ?? []).map((error) => {
    const code = error.extensions['code'];
    return typeof code === 'string' ? code : 'UNKNOWN';
  });
}
