import type { ExecutionResult } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import { knownAnswerSize } from '../../graphql/answer-size.js';
import type { Context } from '../../graphql/context.js';
import { existingLedgerOf } from '../../graphql/response-ledger.js';
import { slicedJson } from '../sliced-json.js';

/** Answers larger than this are written a slice of this size at a time; smaller ones by one JSON.stringify. */
export const SERIALISATION_SLICE_BYTES = 1024 * 1024;

/** A result or an incremental part, with the serialiser yoga's result processors use when one is given. */
type SerialisableResult = ExecutionResult & {
  incremental?: readonly ExecutionResult[];
  stringify?: (result: ExecutionResult) => string;
};

/** The members a GraphQL answer's size is in: the rest (errors, extensions, hasNext) is small and cleaned by yoga. */
const LARGE_MEMBERS = ['data', 'incremental'] as const;

/**
 * Writes a large answer's data in slices that give the event loop back in between (see sliced-json.ts), before
 * yoga's result processor turns it into a response: the processor then writes the rest (errors, extensions, which
 * it cleans first) with JSON.stringify and takes the data's text as it is. Each part of an incremental answer
 * (@defer, @stream) is written so too when it is large. What is large is what the answer's fields charged
 * (ResponseLedger.answerSize), so a small answer stays on the fast path untouched.
 */
export function useSlicedSerialisation(sliceBytes = SERIALISATION_SLICE_BYTES): Plugin<Context> {
  return {
    onExecute({ args }) {
      const { ledger } = args.contextValue;
      return {
        onExecuteDone({ result }) {
          if (!isAsyncIterable(result)) return undefined;
          let sizeAtLastPart = 0;
          const texts = new WeakMap<object, string>();
          return {
            onNext: async (part) => {
              const grown = ledger.answerSize - sizeAtLastPart;
              sizeAtLastPart = ledger.answerSize;
              if (grown >= sliceBytes) part.setResult(await sliced(part.result, sliceBytes, texts));
            },
          };
        },
      };
    },
    // Synchronous for a small answer (nearly every one): a hook that returns a promise costs every request a hop.
    onResultProcess(processing) {
      const { request, result } = processing;
      if (isAsyncIterable(result) || (existingLedgerOf(request)?.answerSize ?? 0) < sliceBytes) return undefined;
      // The text of each value written whole, shared by the batch's operations: each is written once.
      const texts = new WeakMap<object, string>();
      const written = async (): Promise<void> => {
        if (!Array.isArray(result)) {
          processing.setResult(await sliced(result as SerialisableResult, sliceBytes, texts));
          return;
        }
        const results: SerialisableResult[] = [];
        for (const one of result as SerialisableResult[]) results.push(await sliced(one, sliceBytes, texts));
        processing.setResult(results);
      };
      return written();
    },
  };
}

/** The result with its large members written in slices, and a serialiser that writes the rest around them. */
async function sliced(
  result: SerialisableResult,
  sliceBytes: number,
  texts: WeakMap<object, string>,
): Promise<SerialisableResult> {
  const written: string[] = [];
  for (const member of LARGE_MEMBERS) {
    const value = result[member];
    if (value !== undefined && value !== null)
      written.push(`"${member}":${await slicedJson(value, knownAnswerSize, sliceBytes, texts)}`);
  }
  if (written.length === 0) return result;
  return {
    ...result,
    stringify: (cleaned) => {
      const rest = Object.fromEntries(
        Object.entries(cleaned).filter(([member]) => !(LARGE_MEMBERS as readonly string[]).includes(member)),
      );
      const restText = JSON.stringify(rest);
      return `${restText.slice(0, -1)}${restText === '{}' ? '' : ','}${written.join(',')}}`;
    },
  };
}
