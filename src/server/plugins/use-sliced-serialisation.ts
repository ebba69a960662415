import type { ExecutionResult } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import { knownAnswerSize } from '../../graphql/answer-size.js';
import type { Context } from '../../graphql/context.js';
import { existingLedgerOf } from '../../graphql/response-ledger.js';
import { slicedJson } from '../sliced-json.js';

/** Answers larger than this are written a slice of this size at a time; smaller ones by one JSON.stringify. */
export const SERIALISATION_SLICE_BYTES = 1024 * 1024;

type SerialisableResult = ExecutionResult & { stringify?: (result: ExecutionResult) => string };

/**
 * Writes a large answer's `data` in slices that give the event loop back in between (see sliced-json.ts), before
 * yoga's result processor turns the result into a response: the processor then writes the rest (errors,
 * extensions, which it cleans first) with JSON.stringify and takes the data's text as it is. The answer's size is
 * the one its fields charged (ResponseLedger.answerSize), so a small answer stays on the fast path untouched.
 */
export function useSlicedSerialisation(sliceBytes = SERIALISATION_SLICE_BYTES): Plugin<Context> {
  return {
    async onResultProcess(processing) {
      const { request, result } = processing;
      if (isAsyncIterable(result) || (existingLedgerOf(request)?.answerSize ?? 0) < sliceBytes) return;
      const results = Array.isArray(result) ? (result as SerialisableResult[]) : [result as SerialisableResult];
      const sliced: SerialisableResult[] = [];
      // The text of each value written whole, shared by the batch's operations: each is written once.
      const texts = new WeakMap<object, string>();
      for (const one of results) {
        if (one.data === undefined || one.data === null) {
          sliced.push(one);
          continue;
        }
        const dataText = await slicedJson(one.data, knownAnswerSize, sliceBytes, texts);
        sliced.push({
          ...one,
          stringify: ({ data: _written, ...rest }) => {
            const restText = JSON.stringify(rest);
            return restText === '{}' ? `{"data":${dataText}}` : `${restText.slice(0, -1)},"data":${dataText}}`;
          },
        });
      }
      processing.setResult(Array.isArray(result) ? sliced : (sliced[0] as SerialisableResult));
    },
  };
}
