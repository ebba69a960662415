import type { ExecutionResult } from 'graphql';
import { isAsyncIterable, processRegularResult, type Plugin } from 'graphql-yoga';
import { hasSharedText, knownAnswerSize } from '../../graphql/answer-size.js';
import { chunkedResponse, chunksLength } from './chunked-body.js';
import { joinedText, slicedJson, type AnswerChunks, type KnownValues } from './sliced-json.js';
import type { AnswerState, PipelineContext, PipelineServerContext } from '../request-state.js';

/** Answers larger than this are written a slice of this size at a time; smaller ones by one JSON.stringify. */
export const SERIALISATION_SLICE_BYTES = 1024 * 1024;

/** A result or an incremental part, with the serialiser yoga's result processors use when one is given. */
type SerialisableResult = ExecutionResult & {
  incremental?: readonly ExecutionResult[];
  stringify?: (result: ExecutionResult) => string;
};

/** The members a GraphQL answer's size is in: the rest (errors, extensions, hasNext) is small and cleaned by yoga. */
const LARGE_MEMBERS = ['data', 'incremental'] as const;

const KNOWN_VALUES: KnownValues = { sizeOf: knownAnswerSize, shared: hasSharedText };

// JSON.stringify escapes every control character, so a raw NUL never occurs in JSON text: it marks where a large
// member's chunks go in the text yoga's result processor writes around them.
const MARK = '\u0000';

/**
 * Writes a large answer's data in slices that give the event loop back in between (see sliced-json.ts), before
 * yoga's result processor turns it into a response: the processor then writes the rest (errors, extensions, which
 * it cleans first) with JSON.stringify, and the data's chunks are put in their place in the response's body, which
 * is sent chunk by chunk: an upstream body the answer carries is sent from its shared text (sharedJsonText), never
 * copied into an answer string. Each part of an incremental answer (@defer, @stream) is written as text, in slices
 * too when it is large. What is large is what the answer's fields charged (ResponseLedger.answerSize); an answer
 * that carries a shared text takes this path whatever its size, so that its bytes are held once, as the in-flight
 * budget counted them. A small answer stays on the fast path untouched.
 */
export function useSlicedSerialisation(
  sliceBytes = SERIALISATION_SLICE_BYTES,
): Plugin<PipelineContext, PipelineServerContext> {
  return {
    onExecute({ args }) {
      const { ledger } = args.contextValue;
      ledger.sendSharedTexts();
      return {
        onExecuteDone({ result }) {
          if (!isAsyncIterable(result)) return undefined;
          ledger.copySharedTexts();
          let sizeAtLastPart = 0;
          const texts = new WeakMap<object, string>();
          return {
            onNext: async (part) => {
              const grown = ledger.answerSize - sizeAtLastPart;
              sizeAtLastPart = ledger.answerSize;
              if (grown >= sliceBytes) part.setResult(await sliced(part.result, sliceBytes, texts, asText));
            },
          };
        },
      };
    },
    // Synchronous for a small answer (nearly every one): a hook that returns a promise costs every request a hop.
    onResultProcess(processing) {
      const { result, serverContext } = processing;
      const { ledger, answer } = serverContext.state;
      if (isAsyncIterable(result) || ledger === undefined) return undefined;
      if (ledger.answerSize < sliceBytes && !ledger.carriesSharedText) return undefined;
      // Only yoga's JSON processor writes the body whole, where marks can be replaced; any other (an event stream
      // asked for by Accept) gets the text itself.
      const order: MemberOrder = ledger.answerSize >= sliceBytes ? 'large last' : 'as the result has them';
      const regular = processing.resultProcessor === processRegularResult;
      if (!regular) ledger.copySharedTexts();
      const place: Placing = regular ? markedFor(answer) : asText;
      // The text of each value written whole, shared by the batch's operations: each is written once.
      const texts = new WeakMap<object, string>();
      const written = async (): Promise<void> => {
        if (!Array.isArray(result)) {
          processing.setResult(await sliced(result as SerialisableResult, sliceBytes, texts, place, order));
          return;
        }
        const results: SerialisableResult[] = [];
        for (const one of result as SerialisableResult[])
          results.push(await sliced(one, sliceBytes, texts, place, order));
        processing.setResult(results);
      };
      return written();
    },
    onResponse(payload) {
      const { response, fetchAPI, serverContext } = payload;
      const { answer } = serverContext.state;
      const members = answer.pendingChunks;
      if (members === undefined) return undefined;
      answer.pendingChunks = undefined;
      const withChunks = async (): Promise<void> => {
        const chunks = placed(await response.text(), members);
        const headers = new fetchAPI.Headers(response.headers);
        headers.set('content-length', String(chunksLength(chunks)));
        payload.setResponse(chunkedResponse(fetchAPI, chunks, { status: response.status, headers }));
      };
      return withChunks();
    },
  };
}

/** How a large member's chunks are put in the text of its result: as the text itself, or as a mark. */
type Placing = (chunks: AnswerChunks) => string;

const asText: Placing = joinedText;

/** Marks whose chunks onResponse puts in the response's body (kept in the request state's `answer` till then). */
function markedFor(answer: AnswerState): Placing {
  return (chunks) => {
    (answer.pendingChunks ??= []).push(chunks);
    return MARK;
  };
}

/** The body's bytes: the processor's text with each mark replaced by the next member's chunks. */
function placed(text: string, members: readonly AnswerChunks[]): Buffer[] {
  const pieces = text.split(MARK);
  const chunks: Buffer[] = [];
  let own = '';
  const flush = (): void => {
    if (own.length > 0) chunks.push(Buffer.from(own));
    own = '';
  };
  // The n-th mark is between pieces n and n + 1.
  for (let index = 0; index < pieces.length; index++) {
    own += pieces[index] ?? '';
    if (index === pieces.length - 1) break;
    for (const chunk of members[index] ?? []) {
      if (typeof chunk === 'string') own += chunk;
      else {
        flush();
        chunks.push(chunk);
      }
    }
  }
  flush();
  return chunks;
}

/**
 * Where the serialiser puts the large members: last, after the rest (what an answer written in slices has always
 * been), or in the result's own order, as JSON.stringify writes it (what a smaller answer has always been, which
 * takes this path now when it carries a shared text): either way, no answer's bytes change.
 */
type MemberOrder = 'large last' | 'as the result has them';

/** The result with its large members written in slices, and a serialiser that writes the rest around them. */
async function sliced(
  result: SerialisableResult,
  sliceBytes: number,
  texts: WeakMap<object, string>,
  place: Placing,
  order: MemberOrder = 'large last',
): Promise<SerialisableResult> {
  const written = new Map<string, string>();
  for (const member of LARGE_MEMBERS) {
    const value = result[member];
    if (value !== undefined && value !== null)
      written.set(member, place(await slicedJson(value, KNOWN_VALUES, sliceBytes, texts)));
  }
  if (written.size === 0) return result;
  return {
    ...result,
    stringify: (cleaned) => {
      if (order === 'large last') {
        const rest = Object.fromEntries(Object.entries(cleaned).filter(([member]) => !written.has(member)));
        const restText = JSON.stringify(rest);
        const large = [...written].map(([member, text]) => `"${member}":${text}`);
        return `${restText.slice(0, -1)}${restText === '{}' ? '' : ','}${large.join(',')}}`;
      }
      const members: string[] = [];
      for (const [member, value] of Object.entries(cleaned)) {
        // JSON.stringify gives undefined for what it leaves out of an object (undefined, a function).
        const text: string | undefined = written.get(member) ?? JSON.stringify(value);
        if (text !== undefined) members.push(`${JSON.stringify(member)}:${text}`);
      }
      return `{${members.join(',')}}`;
    },
  };
}
