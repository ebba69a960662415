import { Kind, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode, type ValueNode } from 'graphql';
import { DATASET_CODES, type DatasetCode } from '../catalogue.js';

/** Upstream bytes that cost one point of operation cost, on top of a payload field's own UPSTREAM_FIELD_COST. */
export const BYTES_PER_COST_POINT = 10 * 1024;

/**
 * The size of each dataset's unfiltered body, as last read: what makes a `payload` field expensive. One entry per
 * catalogue code, so it is bounded by the catalogue. A dataset not read yet costs nothing extra: its first read
 * is one upstream call, and the response bound (RESPONSE_MAX_MB) still holds.
 */
export class PayloadSizes {
  private readonly bytes = new Map<DatasetCode, number>();

  record(code: DatasetCode, bytes: number): void {
    this.bytes.set(code, bytes);
  }

  bytesOf(code: DatasetCode): number {
    return this.bytes.get(code) ?? 0;
  }

  /**
   * The extra cost of an operation's `payload` fields: each one, alias or not, costs its dataset's body size
   * (BYTES_PER_COST_POINT a point), since each is serialised again. `dataset(code:)` names one dataset,
   * `datasets` all of them; a query-filtered payload is priced as the whole body (an upper bound).
   */
  surcharge(
    document: DocumentNode,
    operationName: string | undefined,
    variables: Readonly<Record<string, unknown>>,
  ): number {
    const operation = document.definitions.find(
      (definition) =>
        definition.kind === Kind.OPERATION_DEFINITION &&
        (operationName === undefined || definition.name?.value === operationName),
    );
    if (operation?.kind !== Kind.OPERATION_DEFINITION) return 0;
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const definition of document.definitions)
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    const codeOf = (value: ValueNode | undefined): DatasetCode | undefined => {
      const code =
        value?.kind === Kind.ENUM
          ? value.value
          : value?.kind === Kind.VARIABLE
            ? variables[value.name.value]
            : undefined;
      return DATASET_CODES.find((known) => known === code);
    };
    // Validation has already refused fragment cycles, and the depth limit bounds this recursion.
    const bytesIn = (selectionSet: SelectionSetNode | undefined, datasets: readonly DatasetCode[]): number => {
      let total = 0;
      for (const selection of selectionSet?.selections ?? []) {
        if (selection.kind === Kind.FRAGMENT_SPREAD)
          total += bytesIn(fragments.get(selection.name.value)?.selectionSet, datasets);
        else if (selection.kind === Kind.INLINE_FRAGMENT) total += bytesIn(selection.selectionSet, datasets);
        else if (selection.name.value === 'payload')
          total += datasets.reduce((sum, code) => sum + this.bytesOf(code), 0);
        else if (selection.name.value === 'datasets') total += bytesIn(selection.selectionSet, DATASET_CODES);
        else if (selection.name.value === 'dataset') {
          const code = codeOf(selection.arguments?.find((argument) => argument.name.value === 'code')?.value);
          total += bytesIn(selection.selectionSet, code === undefined ? [] : [code]);
        } else total += bytesIn(selection.selectionSet, []);
      }
      return total;
    };
    return Math.ceil(bytesIn(operation.selectionSet, []) / BYTES_PER_COST_POINT);
  }
}
