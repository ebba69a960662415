import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesPlugin } from '@escape.tech/graphql-armor-max-directives';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import { complexityFromQuery } from '@pothos/plugin-complexity';
import { GraphQLError, Kind, type DocumentNode, type GraphQLSchema, type ValidationContext } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { OperationLimits } from '../../config.js';
import type { PayloadSizes } from '../../graphql/payload-sizes.js';
import { CODE } from '../../errors/registry.js';

/** Which limit refused an operation, in `extensions.limit` beside the code GRAPHQL_VALIDATION_FAILED. */
export type LimitName = 'depth' | 'aliases' | 'directives' | 'tokens' | 'cost';

/**
 * The operation limits, checked while the document is parsed and validated, so a refused operation never
 * reaches a resolver and never calls the upstream. graphql-armor counts depth, aliases, directives and tokens;
 * the cost is Pothos's complexity (cost.ts), since armor's own cost limit cannot price one field above another.
 * Every refusal is a validation error: HTTP 400, `GRAPHQL_VALIDATION_FAILED`, `extensions.limit` naming the
 * limit and a message that gives the limit and what was found.
 */
export function useOperationLimits(limits: OperationLimits, payloadSizes?: PayloadSizes): Plugin[] {
  const armor = { exposeLimits: true, propagateOnRejection: false } as const;
  return [
    maxDepthPlugin({ ...armor, n: limits.maxDepth, onReject: [reject('depth')] }),
    maxAliasesPlugin({ ...armor, n: limits.maxAliases, onReject: [reject('aliases')] }),
    maxDirectivesPlugin({ ...armor, n: limits.maxDirectives, onReject: [reject('directives')] }),
    // The token count is checked in the parser: its error is a parse error, thrown as armor throws it.
    maxTokensPlugin({ exposeLimits: true, n: limits.maxTokens, onReject: [tagTokens] }),
    useCostLimit(limits.maxCost, payloadSizes),
  ] as Plugin[];
}

export function limitError(limit: LimitName, message: string, facts: Record<string, number> = {}): GraphQLError {
  return new GraphQLError(message, {
    extensions: { code: CODE.GRAPHQL_VALIDATION_FAILED, limit, ...facts, http: { status: 400, spec: true } },
  });
}

function reject(limit: LimitName) {
  return (context: ValidationContext | null, error: GraphQLError): void => {
    context?.reportError(limitError(limit, error.message));
  };
}

function tagTokens(_context: ValidationContext | null, error: GraphQLError): void {
  Object.assign(error.extensions, {
    code: CODE.GRAPHQL_PARSE_FAILED,
    limit: 'tokens',
    http: { status: 400, spec: true },
  });
}

/**
 * Refuses a valid operation whose cost is over `maxCost`: the cost of the operation that will run, plus what
 * its payload fields weigh by the size of the bodies they return (PayloadSizes.surcharge).
 */
function useCostLimit(maxCost: number, payloadSizes: PayloadSizes | undefined): Plugin {
  return {
    onValidate({ params: { schema, documentAST }, context }) {
      return ({ valid, result, setResult }) => {
        if (!valid) return;
        const request = (
          context as { params?: { operationName?: string | null; variables?: Record<string, unknown> | null } }
        ).params;
        // envelop types these loosely (it supports several graphql versions); they are graphql 16's.
        const [document, operationName, variables] = [
          documentAST as DocumentNode,
          request?.operationName ?? undefined,
          request?.variables ?? {},
        ];
        const cost =
          operationCost(schema as GraphQLSchema, document, operationName, variables) +
          (payloadSizes?.surcharge(document, operationName, variables) ?? 0);
        if (cost > maxCost) {
          setResult([
            ...result,
            limitError('cost', `Operation cost limit of ${maxCost} exceeded, found ${cost}.`, { cost, maxCost }),
          ]);
        }
      };
    },
  };
}

function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | undefined,
  variables: Record<string, unknown>,
): number {
  const operations = document.definitions.filter((definition) => definition.kind === Kind.OPERATION_DEFINITION);
  const selected = operations.find(
    (operation) => operationName === undefined || operation.name?.value === operationName,
  );
  if (selected === undefined) return 0;
  const fragments = document.definitions.filter((definition) => definition.kind === Kind.FRAGMENT_DEFINITION);
  try {
    return complexityFromQuery({ kind: Kind.DOCUMENT, definitions: [selected, ...fragments] }, { schema, variables })
      .complexity;
  } catch {
    // Variables that do not fit: execution reports them with its own error, and runs nothing.
    return 0;
  }
}
