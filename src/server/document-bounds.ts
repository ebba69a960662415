import { Kind, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';

/** What makes a document expensive to validate, measured before it is validated. */
export interface DocumentMeasure {
  readonly fragments: number;
  readonly fragmentSpreads: number;
  /**
   * The most fields sharing one response name in one selection set, fragments spread into it (inline or named,
   * however deep) counted as the fields they add: graphql-js's OverlappingFieldsCanBeMerged compares every pair of
   * them, so its work grows with the square of this.
   */
  readonly fieldsPerResponseName: number;
}

/**
 * Measures `document` in one pass over its AST: each named fragment's fields by response name are counted once
 * and added wherever it is spread, so a fragment spread many times, or fragments spreading each other, cost no
 * more to measure than to read. A fragment that spreads itself (which validation refuses) counts as empty here.
 * Counts stop growing past `saturateAt`, the point where the answer is already "too many".
 */
export function measureDocument(document: DocumentNode, saturateAt: number): DocumentMeasure {
  const definitions = new Map<string, FragmentDefinitionNode>();
  let fragmentSpreads = 0;
  let fieldsPerResponseName = 0;
  for (const definition of document.definitions)
    if (definition.kind === Kind.FRAGMENT_DEFINITION) definitions.set(definition.name.value, definition);

  const fragmentFields = new Map<string, ReadonlyMap<string, number>>();
  const inProgress = new Set<string>();

  const add = (into: Map<string, number>, name: string, count: number): void => {
    const total = Math.min(saturateAt, (into.get(name) ?? 0) + count);
    into.set(name, total);
    if (total > fieldsPerResponseName) fieldsPerResponseName = total;
  };

  /** A selection set's fields by response name, with what its fragments add; measures the sets nested in it. */
  const fieldsOf = (selectionSet: SelectionSetNode): Map<string, number> => {
    const fields = new Map<string, number>();
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        add(fields, selection.alias?.value ?? selection.name.value, 1);
        if (selection.selectionSet !== undefined) fieldsOf(selection.selectionSet);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        for (const [name, count] of fieldsOf(selection.selectionSet)) add(fields, name, count);
      } else {
        fragmentSpreads += 1;
        for (const [name, count] of fieldsOfFragment(selection.name.value)) add(fields, name, count);
      }
    }
    return fields;
  };

  const fieldsOfFragment = (name: string): ReadonlyMap<string, number> => {
    const known = fragmentFields.get(name);
    if (known !== undefined) return known;
    const definition = definitions.get(name);
    if (definition === undefined || inProgress.has(name)) return new Map();
    inProgress.add(name);
    const fields = fieldsOf(definition.selectionSet);
    inProgress.delete(name);
    fragmentFields.set(name, fields);
    return fields;
  };

  for (const definition of document.definitions) {
    if (definition.kind === Kind.OPERATION_DEFINITION) fieldsOf(definition.selectionSet);
    else if (definition.kind === Kind.FRAGMENT_DEFINITION) fieldsOfFragment(definition.name.value);
  }
  return { fragments: definitions.size, fragmentSpreads, fieldsPerResponseName };
}
