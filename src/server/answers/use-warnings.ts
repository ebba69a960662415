import type { ExecutionResult } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import type { Context } from '../../graphql/context.js';
import type { AnswerWarnings } from '../../graphql/warnings.js';

type SetResult = (result: ExecutionResult) => void;

/** Writes the warnings not yet sent into `result`'s `extensions.warnings`, after any it already carries. */
function writeWarnings(warnings: AnswerWarnings, result: ExecutionResult, setResult: SetResult): void {
  const taken = warnings.take();
  if (taken.length === 0) return;
  const earlier: unknown = result.extensions?.['warnings'];
  const sent: readonly unknown[] = Array.isArray(earlier) ? earlier : [];
  setResult({ ...result, extensions: { ...result.extensions, warnings: [...sent, ...taken] } });
}

/**
 * Sends the warnings fields raised (graphql/warnings.ts) as `extensions.warnings` of the result they belong to:
 * the whole answer, each part of an incremental (@defer, @stream) answer, each event of a subscription. An
 * envelop hook, so it holds wherever an operation runs: HTTP POST and GET, each operation of a batch, SSE,
 * multipart and graphql-ws. An answer that carries warnings is kept by no cache (see answer-errors.ts).
 */
export function useWarnings(): Plugin<Context> {
  return {
    onExecute: ({ args }) => ({ onExecuteDone: whenDone(args.contextValue.warnings) }),
    onSubscribe: ({ args }) => ({ onSubscribeResult: whenDone(args.contextValue.warnings) }),
  };
}

/** An execution's or a subscription's done hook: a whole result gets the warnings now, a stream each part's. */
function whenDone(warnings: AnswerWarnings) {
  return ({
    result,
    setResult,
  }: {
    result: ExecutionResult | AsyncIterable<ExecutionResult>;
    setResult: SetResult;
  }) => {
    if (!isAsyncIterable(result)) return writeWarnings(warnings, result, setResult);
    return {
      onNext: (part: { result: ExecutionResult; setResult: SetResult }) =>
        writeWarnings(warnings, part.result, part.setResult),
    };
  };
}
