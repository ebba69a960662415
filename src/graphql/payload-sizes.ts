import {
  getArgumentValues,
  getNamedType,
  getNullableType,
  isAbstractType,
  isCompositeType,
  isInterfaceType,
  isListType,
  isObjectType,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLSchema,
  type FieldNode,
  type SelectionSetNode,
} from 'graphql';
import { DATASET_CODES, findDataset, type DatasetCode } from '../catalogue.js';

/** Upstream bytes that cost one point of operation cost, on top of a payload field's own UPSTREAM_FIELD_COST. */
export const BYTES_PER_COST_POINT = 10 * 1024;

/**
 * The field extension of a field whose value is a dataset's whole body (`Dataset.payload`): it costs the body's
 * size, wherever its Dataset was reached.
 */
export const PRICED_BY_BODY = { pricedByBody: true } as const;

/**
 * The field extension of a field that returns datasets (or Node ids that may name some): which ones, from its
 * arguments, so that the `payload` under it is priced by those datasets' sizes. A field that returns a Dataset
 * and declares none is priced at the worst: the largest dataset, or every one for a list.
 */
export function returnsDatasets(pick: (args: Readonly<Record<string, unknown>>) => readonly (string | undefined)[]) {
  return { returnsDatasets: pick } as const;
}

type DatasetPick = (args: Readonly<Record<string, unknown>>) => readonly (string | undefined)[];

/**
 * The size of each dataset's unfiltered body, as last read: what makes a `payload` field expensive. One entry per
 * catalogue code, so it is bounded by the catalogue. A dataset not read yet costs nothing extra: its first read
 * is one upstream call, and the answer's byte budget (RESPONSE_MAX_MB) still holds.
 */
export class PayloadSizes {
  private readonly bytes = new Map<DatasetCode, number>();

  record(code: DatasetCode, bytes: number): void {
    this.bytes.set(code, bytes);
  }

  bytesOf(code: DatasetCode): number {
    return this.bytes.get(code) ?? 0;
  }

  /** The dataset with the largest body read so far: the worst case of a Dataset the document does not name. */
  private largest(): DatasetCode {
    let largest: DatasetCode = DATASET_CODES[0];
    for (const [code, bytes] of this.bytes) if (bytes > this.bytesOf(largest)) largest = code;
    return largest;
  }

  /**
   * The extra cost of an operation's whole-body fields (PRICED_BY_BODY): each one, alias or not, costs its
   * dataset's body size (BYTES_PER_COST_POINT a point), since each is serialised again, for every Dataset it is
   * selected on, however that Dataset was reached (`dataset`, `datasets`, `node`, `nodes`, typed records, a
   * subscription's event). A query-filtered payload is priced as the whole body (an upper bound).
   */
  surcharge(
    schema: GraphQLSchema,
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
    const root = schema.getRootType(operation.operation);
    const datasetType = schema.getType('Dataset');
    if (root === undefined || root === null || !isObjectType(datasetType)) return 0;
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const definition of document.definitions)
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);

    const returnsDataset = (type: GraphQLCompositeType): boolean =>
      type === datasetType || (isAbstractType(type) && schema.isSubType(type, datasetType));
    const datasetsOf = (field: GraphQLField<unknown, unknown>, node: FieldNode): readonly DatasetCode[] => {
      const pick = field.extensions['returnsDatasets'] as DatasetPick | undefined;
      if (pick === undefined) return isListType(getNullableType(field.type)) ? DATASET_CODES : [this.largest()];
      try {
        return pick(getArgumentValues(field, node, variables as Record<string, unknown>)).flatMap((code) => {
          const dataset = code === undefined ? undefined : findDataset(code);
          return dataset === undefined ? [] : [dataset.code];
        });
      } catch {
        // Arguments that do not fit: execution refuses them and runs nothing.
        return [];
      }
    };
    const typeNamed = (name: string, otherwise: GraphQLCompositeType): GraphQLCompositeType => {
      const type = schema.getType(name);
      return type !== undefined && isCompositeType(type) ? type : otherwise;
    };
    // Validation has already refused fragment cycles, and the depth limit bounds this recursion.
    const bytesIn = (
      selectionSet: SelectionSetNode | undefined,
      parent: GraphQLCompositeType,
      datasets: readonly DatasetCode[],
    ): number => {
      let total = 0;
      for (const selection of selectionSet?.selections ?? []) {
        if (selection.kind === Kind.FRAGMENT_SPREAD) {
          const fragment = fragments.get(selection.name.value);
          if (fragment !== undefined)
            total += bytesIn(fragment.selectionSet, typeNamed(fragment.typeCondition.name.value, parent), datasets);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          const type =
            selection.typeCondition === undefined ? parent : typeNamed(selection.typeCondition.name.value, parent);
          total += bytesIn(selection.selectionSet, type, datasets);
        } else if (isObjectType(parent) || isInterfaceType(parent)) {
          const field = parent.getFields()[selection.name.value];
          if (field === undefined) continue;
          if (field.extensions['pricedByBody'] === true) {
            total += datasets.reduce((sum, code) => sum + this.bytesOf(code), 0);
            continue;
          }
          const type = getNamedType(field.type);
          if (!isCompositeType(type)) continue;
          total += bytesIn(selection.selectionSet, type, returnsDataset(type) ? datasetsOf(field, selection) : []);
        }
      }
      return total;
    };
    return Math.ceil(bytesIn(operation.selectionSet, root, []) / BYTES_PER_COST_POINT);
  }
}
