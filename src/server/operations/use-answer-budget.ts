import type { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { ResponseTooLargeError } from '../../graphql/response-ledger.js';
import { CODE } from '../../errors/registry.js';
import type { AnswerState, PipelineContext } from '../request-state.js';

/** An execution result or one incremental part: where field errors are. */
interface ResultPart {
  errors?: readonly GraphQLError[];
  incremental?: readonly { errors?: readonly GraphQLError[] }[];
}

/**
 * The answer's byte budget at the edges of execution (the fields charge it, see graphql/answer-size.ts). Once
 * the budget is spent every later field is refused too, so the answer reports the refusal once, at the field
 * that tipped it, rather than once per refused field (as many errors could outweigh the bytes they stand for).
 * A subscription's budget is per event: each event's answer starts with all of it.
 */
export function useAnswerBudget(): Plugin<PipelineContext> {
  // Whether the answer (its request state's, as its ledger is) reported its refusal already.
  const keepFirstRefusal = (answer: AnswerState, part: ResultPart): ResultPart => {
    const refusedOnce = (errors: readonly GraphQLError[] | undefined): GraphQLError[] | undefined => {
      if (errors === undefined) return undefined;
      const kept = errors.filter((error) => {
        if (!isRefusal(error)) return true;
        if (answer.tooLargeReported) return false;
        answer.tooLargeReported = true;
        return true;
      });
      return kept.length === 0 ? undefined : kept;
    };
    if (part.errors === undefined && part.incremental === undefined) return part;
    const { errors, incremental, ...rest } = part;
    const kept = refusedOnce(errors);
    return {
      ...rest,
      ...(kept === undefined ? {} : { errors: kept }),
      ...(incremental === undefined
        ? {}
        : {
            incremental: incremental.map(({ errors: partErrors, ...item }) => {
              const keptInPart = refusedOnce(partErrors);
              return keptInPart === undefined ? item : { ...item, errors: keptInPart };
            }),
          }),
    };
  };
  return {
    onExecute({ args }) {
      const { answer } = args.contextValue.state;
      return {
        onExecuteDone({ result, setResult }) {
          if (Symbol.asyncIterator in result)
            return { onNext: ({ result: part, setResult: setPart }) => setPart(keepFirstRefusal(answer, part)) };
          setResult(keepFirstRefusal(answer, result));
          return undefined;
        },
      };
    },
    onSubscribe({ args }) {
      const { ledger, state } = args.contextValue;
      return {
        onSubscribeResult() {
          return {
            onNext({ result, setResult }) {
              setResult(keepFirstRefusal(state.answer, result));
              ledger.nextEvent();
              state.answer.tooLargeReported = false;
            },
          };
        },
      };
    },
  };
}

/** RESPONSE_TOO_LARGE, before error masking made it a coded GraphQL error or after. */
function isRefusal(error: GraphQLError): boolean {
  return error.originalError instanceof ResponseTooLargeError || error.extensions['code'] === CODE.RESPONSE_TOO_LARGE;
}
