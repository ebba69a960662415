import type { IncomingMessage } from 'node:http';
import type { Plugin } from 'graphql-yoga';
import { getOperationAST, type DocumentNode } from 'graphql';
import type { Context } from '../../graphql/context.js';
import { isSingleResult } from '../../graphql/execution-result.js';
import { accessNotesOf } from '../access-log.js';
import type { Metrics } from '../metrics.js';
import { errorCodes, logOperation } from '../operation-log.js';

/**
 * Each executed operation: its name and the error codes in its result go on the request's access line
 * (access-log.ts), or, for a request that did not come through the node:http listener (the fetch handler), on a
 * line of its own tied to the request id; its duration and errors go to graphql_operation_duration_seconds and
 * graphql_operation_errors_total. Variables and payloads are never logged: they may be large, and the id is
 * enough to correlate.
 */
export function useOperationLog(metrics: Metrics): Plugin<Context> {
  return {
    onExecute({ args }) {
      const started = performance.now();
      // envelop types its arguments loosely (it supports several graphql versions); these are graphql 16's.
      const document = args.document as DocumentNode;
      const operation = getOperationAST(document, args.operationName as string | null | undefined);
      const operationName = operation?.name?.value;
      const notes = accessNotesOf((args.contextValue as { req?: IncomingMessage }).req);
      return {
        onExecuteDone({ result }) {
          const ms = performance.now() - started;
          const codes = isSingleResult(result) ? errorCodes(result) : [];
          try {
            metrics.operationDone({
              operationName,
              kind: operation?.operation,
              seconds: ms / 1_000,
              errorCodes: codes,
            });
          } catch (error) {
            args.contextValue.logger.error({ err: error }, 'metrics failed; the request goes on without them');
          }
          if (notes === undefined) {
            logOperation(args.contextValue.logger, { operationName, ms, errorCodes: codes });
            return;
          }
          notes.operationNames.push(operationName);
          notes.errorCodes.push(...codes);
        },
      };
    },
  };
}
