import {
  BREAK,
  isInterfaceType,
  isObjectType,
  Kind,
  visit,
  type ArgumentNode,
  type DocumentNode,
  type GraphQLSchema,
} from 'graphql';

/** The fields of a schema whose price depends on more than the document that selects them. */
interface PricedFields {
  /** Fields whose cost is a function of their arguments (a records page costs by its `first` rows). */
  readonly byArguments: ReadonlySet<string>;
  /** Fields priced by the bytes of the bodies they return (PRICED_BY_BODY; PayloadSizes.surcharge). */
  readonly byBody: ReadonlySet<string>;
}

/** What the cost limit needs to know of a document to price it once rather than per request. */
export interface CostTraits {
  /**
   * No field whose cost reads its arguments is given a variable: every request of the document costs the same,
   * whatever its variables (the operation still named by operationName).
   */
  readonly fixedByVariables: boolean;
  /** Selects a field priced by body somewhere: only then has the operation a surcharge. */
  readonly selectsBodies: boolean;
  /**
   * The variables a request's cost can depend on, sorted: those in the arguments of fields priced by their arguments,
   * and those of directives (`@include(if: $x)` decides what is priced). Two requests of the document whose values of
   * these agree cost the same, whatever their other variables (a filter's value).
   */
  readonly pricingVariables: readonly string[];
}

const pricedFieldsOf = new WeakMap<GraphQLSchema, PricedFields>();
const traitsOf = new WeakMap<DocumentNode, CostTraits>();

/**
 * The cost traits of a parsed document, worked out once per document: yoga's parse cache hands every request that
 * sends the same text the same DocumentNode, so a query whose variables change with every request (a filter's
 * value) is walked once, not each time. Fields are told apart by name alone, whatever type they are on: a name
 * shared with a priced field counts as priced, which can only price a document more often, never less.
 */
export function costTraits(schema: GraphQLSchema, document: DocumentNode): CostTraits {
  const known = traitsOf.get(document);
  if (known !== undefined) return known;
  const priced = pricedFields(schema);
  let fixedByVariables = true;
  let selectsBodies = false;
  const pricingVariables = new Set<string>();
  visit(document, {
    Field(field) {
      if (priced.byBody.has(field.name.value)) selectsBodies = true;
      if (priced.byArguments.has(field.name.value) && hasVariable(field.arguments ?? [])) {
        fixedByVariables = false;
        for (const name of variablesIn(field.arguments ?? [])) pricingVariables.add(name);
      }
    },
    Directive(directive) {
      for (const name of variablesIn(directive.arguments ?? [])) pricingVariables.add(name);
    },
  });
  const traits = { fixedByVariables, selectsBodies, pricingVariables: [...pricingVariables].sort() };
  traitsOf.set(document, traits);
  return traits;
}

function pricedFields(schema: GraphQLSchema): PricedFields {
  const known = pricedFieldsOf.get(schema);
  if (known !== undefined) return known;
  const byArguments = new Set<string>();
  const byBody = new Set<string>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) && !isInterfaceType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      if (typeof field.extensions['complexity'] === 'function') byArguments.add(field.name);
      if (field.extensions['pricedByBody'] === true) byBody.add(field.name);
    }
  }
  const fields = { byArguments, byBody };
  pricedFieldsOf.set(schema, fields);
  return fields;
}

/** The names of the variables in `args`, however deep in a list or an input object. */
function variablesIn(args: readonly ArgumentNode[]): string[] {
  const names: string[] = [];
  for (const argument of args)
    visit(argument, {
      [Kind.VARIABLE](variable) {
        names.push(variable.name.value);
      },
    });
  return names;
}

/** Whether a variable appears anywhere in `args`, however deep in a list or an input object. */
function hasVariable(args: readonly ArgumentNode[]): boolean {
  let found = false;
  for (const argument of args) {
    visit(argument, {
      [Kind.VARIABLE]() {
        found = true;
        return BREAK;
      },
    });
    if (found) return true;
  }
  return false;
}
