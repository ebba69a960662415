import type { Plugin } from 'graphql-yoga';
import { getOperationAST, type DocumentNode } from 'graphql';
import type { Context } from '../../graphql/context.js';
import { isSingleResult } from '../../graphql/execution-result.js';
import { errorCodes, logOperation } from '../operation-log.js';

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
