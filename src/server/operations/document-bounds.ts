import {
  Kind,
  visit,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

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
  /**
   * Aliases of the operations, each fragment's counted once: at most what graphql-armor's aliases limit counts (it
   * adds a fragment's aliases wherever it is spread), so a document over the limit here is over it there too, and can be
   * refused before validation's rules all run (armor's rule runs beside the costly ones).
   */
  readonly aliases: number;
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
  let aliases = 0;
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
  // Aliases of what the operations use, each fragment read once however often it is spread.
  const reached = new Set<string>();
  const countAliases = (selectionSet: SelectionSetNode): void => {
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        if (selection.alias !== undefined) aliases += 1;
        if (selection.selectionSet !== undefined) countAliases(selection.selectionSet);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) countAliases(selection.selectionSet);
      else if (!reached.has(selection.name.value)) {
        reached.add(selection.name.value);
        const definition = definitions.get(selection.name.value);
        if (definition !== undefined) countAliases(definition.selectionSet);
      }
    }
  };
  for (const definition of document.definitions)
    if (definition.kind === Kind.OPERATION_DEFINITION) countAliases(definition.selectionSet);
  return { fragments: definitions.size, fragmentSpreads, fieldsPerResponseName, aliases };
}

/**
 * The pairs of fields graphql-js's OverlappingFieldsCanBeMerged compares in `document`, up to `budget` + 1 (past
 * which the answer is "too many" and counting stops, so measuring costs at most the budget). The rule compares, in
 * every selection set, each pair of fields sharing a response name (fragments spread into it included), and for each
 * pair the fields of their sub-selections that share a name, pair by pair, all the way down: 50 same-named fields
 * of 14 sub-fields each make 1,225 pairs and some 17,000 comparisons, 50-130 ms of one request's validation when
 * they conflict, though every count limit holds. The pair count is what validation's time follows.
 */
export function fieldComparisons(document: DocumentNode, budget: number): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions)
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  const fieldMaps = new WeakMap<SelectionSetNode, Map<string, FieldNode[]>>();
  let compared = 0;
  const saturated = new Error('saturated');

  /** A selection set's fields by response name, its fragments' fields included (each fragment once per path). */
  const fieldsOf = (set: SelectionSetNode, expanding: Set<string> = new Set()): Map<string, FieldNode[]> => {
    const known = fieldMaps.get(set);
    if (known !== undefined) return known;
    const fields = new Map<string, FieldNode[]>();
    const add = (name: string, field: FieldNode): void => {
      const list = fields.get(name);
      if (list === undefined) fields.set(name, [field]);
      else list.push(field);
    };
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) add(selection.alias?.value ?? selection.name.value, selection);
      else {
        const name = selection.kind === Kind.FRAGMENT_SPREAD ? selection.name.value : undefined;
        const inner =
          selection.kind === Kind.INLINE_FRAGMENT ? selection.selectionSet : fragments.get(name ?? '')?.selectionSet;
        if (inner === undefined || (name !== undefined && expanding.has(name))) continue;
        if (name !== undefined) expanding.add(name);
        for (const [responseName, list] of fieldsOf(inner, expanding))
          for (const field of list) add(responseName, field);
        if (name !== undefined) expanding.delete(name);
      }
    }
    fieldMaps.set(set, fields);
    return fields;
  };

  const comparePair = (a: FieldNode, b: FieldNode): void => {
    compared += 1;
    if (compared > budget) throw saturated;
    if (a.selectionSet === undefined || b.selectionSet === undefined) return;
    const right = fieldsOf(b.selectionSet);
    for (const [name, lefts] of fieldsOf(a.selectionSet)) {
      const rights = right.get(name);
      if (rights !== undefined) for (const left of lefts) for (const other of rights) comparePair(left, other);
    }
  };

  try {
    visit(document, {
      SelectionSet(set) {
        for (const fields of fieldsOf(set).values())
          for (let i = 0; i < fields.length; i++)
            for (let j = i + 1; j < fields.length; j++) comparePair(fields[i] as FieldNode, fields[j] as FieldNode);
      },
    });
  } catch (error) {
    if (error !== saturated) throw error;
  }
  return compared;
}
