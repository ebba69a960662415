import type { Plugin } from 'graphql-yoga';
import { getOperationAST, type DocumentNode } from 'graphql';
import { callerLabel } from '../../graphql/context.js';
import { isSingleResult } from '../../graphql/execution-result.js';
import type { Metrics } from './metrics.js';
import { errorCodes, logOperation } from './operation-log.js';
import { CODE } from '../../errors/registry.js';
import type { PipelineContext, PipelineServerContext } from '../request-state.js';

/**
 * Each executed operation's name goes on the request's access line (access-log.ts), with the codes of every
 * error the answer carries, refusals before execution included (parse, validation, 401, 403, 429), as the client
 * sees them. A request that did not come through the node:http listener (the fetch handler) has no access line:
 * each of its operations gets a line of its own, tied to the request id. Duration and errors of each executed
 * operation go to graphql_operation_duration_seconds and graphql_operation_errors_total. Variables and payloads
 * are never logged: they may be large, and the id is enough to correlate.
 */
export function useOperationLog(metrics: Metrics): Plugin<PipelineContext, PipelineServerContext> {
  return {
    onResultProcess({ result, serverContext }) {
      const notes = serverContext.state.accessNotes;
      if (notes === undefined || isAsyncIterable(result)) return;
      for (const single of Array.isArray(result) ? result : [result])
        for (const error of single.errors ?? []) notes.errorCodes.push(answeredCode(error));
    },
    onExecute({ args }) {
      const started = performance.now();
      // envelop types its arguments loosely (it supports several graphql versions); these are graphql 16's.
      const document = args.document as DocumentNode;
      const operation = getOperationAST(document, args.operationName as string | null | undefined);
      const operationName = operation?.name?.value;
      const notes = args.contextValue.state.accessNotes;
      if (notes !== undefined) notes.caller = callerLabel(args.contextValue.caller);
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
        },
      };
    },
  };
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

/** The code of an error as answered (after masking, which gives every expected error its code). */
function answeredCode(error: { extensions?: Record<string, unknown> }): string {
  const code = error.extensions?.['code'];
  return typeof code === 'string' ? code : CODE.INTERNAL_SERVER_ERROR;
}
