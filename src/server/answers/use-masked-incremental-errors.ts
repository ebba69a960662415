import type { GraphQLError } from 'graphql';
import { handleStreamOrSingleExecutionResult, type MaskError, type Plugin } from 'graphql-yoga';

/**
 * Masks the errors of @defer and @stream increments as yoga masks the errors of a whole result. envelop's
 * useMaskedErrors maps `errors` only, so an error in a later part kept its raw message and lost its
 * `extensions.code`: an expected error reached the client without its code, an unexpected one unmasked.
 */
export function useMaskedIncrementalErrors(maskError: MaskError): Plugin {
  return {
    onExecute() {
      return {
        onExecuteDone(payload) {
          return handleStreamOrSingleExecutionResult(payload, ({ result, setResult }) => {
            const { incremental } = result as { incremental?: { errors?: readonly GraphQLError[] }[] };
            if (!Array.isArray(incremental) || !incremental.some((increment) => increment.errors !== undefined)) return;
            setResult({
              ...result,
              incremental: incremental.map((increment) =>
                increment.errors === undefined
                  ? increment
                  : {
                      ...increment,
                      errors: increment.errors.map((error) => maskError(error, 'Unexpected error.', false)),
                    },
              ),
            } as typeof result);
          });
        },
      };
    },
  };
}
