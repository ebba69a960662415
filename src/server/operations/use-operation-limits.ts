import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesPlugin } from '@escape.tech/graphql-armor-max-directives';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import { complexityFromQuery } from '@pothos/plugin-complexity';
import {
  GraphQLError,
  Kind,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type ValidationContext,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { OperationLimits } from '../../config.js';
import type { PayloadSizes } from '../../graphql/payload-sizes.js';
import { CODE } from '../../errors/registry.js';
import { fieldComparisons, measureDocument } from './document-bounds.js';
import { costTraits, type CostTraits } from './cost-traits.js';

/** Which limit refused an operation, in `extensions.limit` beside the code GRAPHQL_VALIDATION_FAILED. */
export type LimitName =
  | 'depth'
  | 'aliases'
  | 'directives'
  | 'tokens'
  | 'cost'
  | 'fragments'
  | 'fragmentSpreads'
  | 'fieldsPerResponseName'
  | 'fieldComparisons';

/**
 * The operation limits, checked while the document is parsed and validated, so a refused operation never
 * reaches a resolver and never calls the upstream. What makes validation itself expensive (fragments, spreads,
 * fields sharing a response name, and the pairs of them validation would compare) is measured first and refuses
 * the document unvalidated (document-bounds.ts);
 * graphql-armor counts depth, aliases (`__typename` among them: an alias of it is as costly to merge as any),
 * directives and tokens; the cost is Pothos's complexity (cost.ts), since armor's own cost limit cannot price one
 * field above another. Every refusal is a validation error: HTTP 400, `GRAPHQL_VALIDATION_FAILED`,
 * `extensions.limit` naming the limit and a message that gives the limit and what was found.
 */
export function useOperationLimits(
  limits: OperationLimits,
  payloadSizes?: PayloadSizes,
): readonly (readonly [name: string, plugin: Plugin])[] {
  const armor = { exposeLimits: true, propagateOnRejection: false } as const;
  return [
    ['validation-bounds', useValidationBounds(limits)],
    ['max-depth', maxDepthPlugin({ ...armor, n: limits.maxDepth, onReject: [reject('depth')] })],
    ['max-aliases', maxAliasesPlugin({ ...armor, n: limits.maxAliases, allowList: [], onReject: [reject('aliases')] })],
    ['max-directives', maxDirectivesPlugin({ ...armor, n: limits.maxDirectives, onReject: [reject('directives')] })],
    // The token count is checked in the parser: its error is a parse error, thrown as armor throws it.
    ['max-tokens', maxTokensPlugin({ exposeLimits: true, n: limits.maxTokens, onReject: [tagTokens] })],
    ['cost-limit', useCostLimit(limits.maxCost, payloadSizes)],
  ] as const;
}

export function limitError(limit: LimitName, message: string, facts: Record<string, number> = {}): GraphQLError {
  return new GraphQLError(message, {
    extensions: { code: CODE.GRAPHQL_VALIDATION_FAILED, limit, ...facts, http: { status: 400, spec: true } },
  });
}

/**
 * Refuses, before the validation rules run, a document over the bounds of what validation costs: its rules run
 * side by side in one visit, so a limit checked by a rule cannot spare the work of another (OverlappingFields-
 * CanBeMerged took 210-340 ms on 440 fragments of `x: __typename`).
 */
function useValidationBounds(
  limits: Pick<
    OperationLimits,
    'maxFragments' | 'maxFragmentSpreads' | 'maxFieldsPerResponseName' | 'maxFieldComparisons' | 'maxAliases'
  >,
): Plugin {
  const bounds: readonly { limit: LimitName; max: number; noun: string }[] = [
    { limit: 'fragments', max: limits.maxFragments, noun: 'Fragments' },
    { limit: 'fragmentSpreads', max: limits.maxFragmentSpreads, noun: 'Fragment spreads' },
    { limit: 'fieldsPerResponseName', max: limits.maxFieldsPerResponseName, noun: 'Fields sharing a response name' },
    { limit: 'aliases', max: limits.maxAliases, noun: 'Aliases' },
  ];
  const saturateAt = limits.maxFieldsPerResponseName + 1;
  // Documents measured within every bound. The parse cache hands each request of a document its one AST, and these
  // hooks run on every request, cached validation or not: measuring again took about 5 % of a response-cache miss.
  const withinBounds = new WeakSet<DocumentNode>();
  return {
    onValidate({ params: { documentAST }, setResult }) {
      if (withinBounds.has(documentAST as DocumentNode)) return;
      const measure: Record<string, number> = { ...measureDocument(documentAST as DocumentNode, saturateAt) };
      const errors = bounds
        .filter(({ limit, max }) => (measure[limit] ?? 0) > max)
        .map(({ limit, max, noun }) => {
          const found = measure[limit] ?? 0;
          const shown = limit === 'fieldsPerResponseName' ? `more than ${max}` : String(found);
          return limitError(limit, `${noun} limit of ${max} exceeded, found ${shown}.`, { max });
        });
      if (errors.length > 0) {
        setResult(errors);
        return;
      }
      // Measured only for a document within the counts above, which bound what measuring it costs.
      const comparisons = fieldComparisons(documentAST as DocumentNode, limits.maxFieldComparisons);
      if (comparisons <= limits.maxFieldComparisons) withinBounds.add(documentAST as DocumentNode);
      else
        setResult([
          limitError(
            'fieldComparisons',
            `Field comparisons limit of ${limits.maxFieldComparisons} exceeded: fields sharing a response name are ` +
              'compared pair by pair with their sub-selections; select each field once.',
            { max: limits.maxFieldComparisons },
          ),
        ]);
    },
  };
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
 * its payload fields weigh by the size of the bodies they return (PayloadSizes.surcharge). An operation whose cost
 * no variable can change is priced once (cost-traits.ts); a document that selects no field priced by body has no
 * surcharge.
 */
function useCostLimit(maxCost: number, payloadSizes: PayloadSizes | undefined): Plugin {
  // By the operation's node, which lives as long as its parsed document: so the operation names a client sends,
  // which may name nothing, cannot grow it. Only costs worked out from variables that fit: with variables that do
  // not, the cost is 0 (execution refuses them), which must not become the operation's price for the requests after.
  const fixedCosts = new WeakMap<OperationDefinitionNode, number>();
  // An operation whose cost its variables change (a records page's `first`), by the values of the variables that can
  // change it: a page asked with a new filter value but the same `first` is priced without walking the document again.
  const costsByVariables = new WeakMap<OperationDefinitionNode, Map<string, number>>();
  const baseCost = (
    schema: GraphQLSchema,
    document: DocumentNode,
    operationName: string | undefined,
    variables: Record<string, unknown>,
    traits: CostTraits,
  ): number => {
    const { fixedByVariables } = traits;
    const operation = document.definitions.find(
      (definition): definition is OperationDefinitionNode =>
        definition.kind === Kind.OPERATION_DEFINITION &&
        (operationName === undefined || definition.name?.value === operationName),
    );
    // No such operation: execution refuses it and runs nothing.
    if (operation === undefined) return 0;
    if (fixedByVariables) {
      const known = fixedCosts.get(operation);
      if (known !== undefined) return known;
    }
    const key = fixedByVariables ? undefined : pricingKey(traits, variables);
    let byVariables = key === undefined ? undefined : costsByVariables.get(operation);
    const known = key === undefined ? undefined : byVariables?.get(key);
    if (known !== undefined) return known;
    const cost = operationCost(schema, document, operation, variables);
    if (cost === undefined) return 0;
    if (fixedByVariables) fixedCosts.set(operation, cost);
    else if (key !== undefined) {
      if (byVariables === undefined) costsByVariables.set(operation, (byVariables = new Map<string, number>()));
      // A handful of page sizes per operation is what clients send; past the bound, the oldest is forgotten.
      if (byVariables.size >= PRICED_VARIABLE_VALUES) byVariables.delete(byVariables.keys().next().value ?? '');
      byVariables.set(key, cost);
    }
    return cost;
  };
  // The refusals made here. yoga's validation cache keeps a document's result, this plugin's refusal included, and
  // hands it to the next request of the same text: one with other variables (a smaller `first`, fewer `_entities`
  // representations) would be refused at the first request's price. So a refusal from the cache is set aside and the
  // request priced again.
  const refusals = new WeakSet<GraphQLError>();
  return {
    onValidate({ params: { schema, documentAST }, context }) {
      return ({ result, setResult }) => {
        const others = result.filter((error) => !refusals.has(error as GraphQLError));
        if (others.length !== result.length) setResult(others);
        if (others.length > 0) return;
        const request = (
          context as { params?: { operationName?: string | null; variables?: Record<string, unknown> | null } }
        ).params;
        // envelop types these loosely (it supports several graphql versions); they are graphql 16's.
        const [document, operationName, variables] = [
          documentAST as DocumentNode,
          request?.operationName ?? undefined,
          request?.variables ?? {},
        ];
        const traits = costTraits(schema as GraphQLSchema, document);
        const surcharge = traits.selectsBodies
          ? (payloadSizes?.surcharge(schema as GraphQLSchema, document, operationName, variables) ?? 0)
          : 0;
        const cost = baseCost(schema as GraphQLSchema, document, operationName, variables, traits) + surcharge;
        if (cost > maxCost) {
          const refusal = limitError('cost', `Operation cost limit of ${maxCost} exceeded, found ${cost}.`, {
            cost,
            maxCost,
          });
          refusals.add(refusal);
          setResult([refusal]);
        }
      };
    },
  };
}

/** How many sets of pricing variables' values each operation's costs are remembered for. */
const PRICED_VARIABLE_VALUES = 64;
/** Values of the pricing variables longer than this as JSON are priced each time rather than remembered. */
const PRICING_KEY_MAX_LENGTH = 256;

/** The key of a request's pricing variables' values (CostTraits.pricingVariables), or undefined when too long. */
function pricingKey(traits: CostTraits, variables: Record<string, unknown>): string | undefined {
  let key: string | undefined;
  try {
    // An absent variable (its default applies) and one sent as null may cost differently: [] and [null].
    key = JSON.stringify(
      traits.pricingVariables.map((name) => (Object.hasOwn(variables, name) ? [variables[name]] : [])),
    );
  } catch {
    return undefined;
  }
  return key.length <= PRICING_KEY_MAX_LENGTH ? key : undefined;
}

/** The operation's cost; undefined when its variables do not fit (execution refuses them and runs nothing). */
function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  selected: OperationDefinitionNode,
  variables: Record<string, unknown>,
): number | undefined {
  const fragments = document.definitions.filter((definition) => definition.kind === Kind.FRAGMENT_DEFINITION);
  try {
    // Whole points: a records page's multiplier is a fraction (graphql/cost.ts recordsPageCost).
    return Math.ceil(
      complexityFromQuery({ kind: Kind.DOCUMENT, definitions: [selected, ...fragments] }, { schema, variables })
        .complexity,
    );
  } catch {
    // Variables that do not fit: execution reports them with its own error, and runs nothing.
    return undefined;
  }
}
