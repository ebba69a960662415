/**
 * Typed records: for each dataset, a row type whose fields are the record keys of schema/shapes.json (checked in,
 * sampled by `npm run shapes`), a connection over it, a typed `where`, `orderBy`, `groupBy` and `sum`, all
 * answered by the same records engine as the untyped `records` and `aggregate` fields, from the same views.
 * The types are made from the file when the schema is built, never from a live answer, so the schema is stable.
 *
 * Hung from one root namespace: `typedRecords { <dataset>: <Dataset>Records { rows(…) aggregate(…) } }`.
 */
import type { FieldMap, InputFieldMap } from '@pothos/core';
import { builder } from '../builder.js';
import { payloadField } from '../payload-field.js';
import { returnsDatasets } from '../payload-sizes.js';
import type { Context } from '../context.js';
import { DATASETS, type DatasetEntry } from '../../catalogue.js';
import type { JsonObject } from '../../json.js';
import {
  DEFAULT_PAGE_SIZE,
  liveKeysOf,
  MAX_PAGE_SIZE,
  numericValue,
  readShapesFile,
  recordsView,
  type DatasetShape,
  type LiveKeys,
  type RecordFilter,
  type RecordOrder,
  type RecordShape,
  type RecordsView,
  type ShapeFieldEntry,
  type SortDirection as SortDirectionValue,
} from '../../records/index.js';
import { canonicalQueryString } from '../../upstream/query.js';
import type { PayloadRead } from '../../upstream/source.js';
import { Dataset } from './dataset.js';
import { loadDataset, pageRows, recordRowConnection, SortDirection } from './records.js';

type Types = typeof builder.$inferSchemaTypes;

/** A filter on one typed field, as GraphQL hands it over: only the operators given are present. */
type FieldFilterShape = Readonly<Record<string, unknown>>;
type WhereShape = Readonly<Record<string, FieldFilterShape | null | undefined>>;
interface OrderShape {
  readonly field: string;
  readonly direction?: SortDirectionValue | null;
}

/** The operator inputs, one per field type; the operators mean what they mean on RecordFilter. */
function filterInput(
  name: string,
  scalar: 'String' | 'Float' | 'Boolean' | 'JSON',
  description: string,
  ordered: boolean,
  text: boolean,
) {
  return builder.inputType(name, {
    description: `${description} Every operator given must hold; the same rules as \`RecordFilter\` (numeric strings compare as numbers).`,
    fields: (t): InputFieldMap => ({
      eq: t.field({ type: scalar, description: 'Equal to (null: null or missing).' }),
      ne: t.field({ type: scalar, description: 'Not equal to (missing values match).' }),
      in: t.field({ type: [scalar], description: 'Equal to one of these (at most 1,000).' }),
      ...(ordered
        ? {
            gte: t.field({ type: scalar, description: 'Greater than or equal to (numbers, or text in Thai order).' }),
            lte: t.field({ type: scalar, description: 'Less than or equal to.' }),
          }
        : {}),
      ...(text
        ? { contains: t.field({ type: scalar, description: 'Text containing this, case-insensitively.' }) }
        : {}),
    }),
  });
}

const FILTERS = {
  string: filterInput('StringFieldFilter', 'String', 'A condition on a text field.', true, true),
  number: filterInput('NumberFieldFilter', 'Float', 'A condition on a number field.', true, false),
  boolean: filterInput('BooleanFieldFilter', 'Boolean', 'A condition on a true/false field.', false, false),
  json: filterInput('JSONFieldFilter', 'JSON', 'A condition on a field of mixed or nested values.', true, true),
};

/** A typed field's value: the record's value when it has the field's type, else null (a key that drifted). */
const READERS: Readonly<Record<ShapeFieldEntry['type'], (value: unknown) => unknown>> = {
  string: (value) => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null),
  // Numbers, and numeric strings by the engine's own rule (values.ts), as filters and sums read them.
  number: (value) => numericValue(value) ?? null,
  boolean: (value) => (typeof value === 'boolean' ? value : null),
  json: (value) => value ?? null,
};

const SCALARS = { string: 'String', number: 'Float', boolean: 'Boolean', json: 'JSON' } as const;

function pascal(code: string): string {
  return code
    .toLowerCase()
    .split('_')
    .map((word) => `${word.charAt(0).toUpperCase()}${word.slice(1)}`)
    .join('');
}

function camel(code: string): string {
  const name = pascal(code);
  return `${name.charAt(0).toLowerCase()}${name.slice(1)}`;
}

function fieldDescription(field: ShapeFieldEntry): string {
  const kind =
    field.type === 'json' ? 'its value as JSON' : `null when a record lacks it or its value is not a ${field.type}`;
  return `Upstream key \`${field.key}\`: ${kind}.`;
}

/** The dataset's typed fields on a row-like type: each reads its key from the record (or aggregate row) itself. */
function typedFields(shape: DatasetShape, t: PothosSchemaTypes.ObjectFieldBuilder<Types, JsonObject>) {
  return Object.fromEntries(
    shape.fields.map((field) => {
      const read = READERS[field.type];
      return [
        field.name,
        t.field({
          type: SCALARS[field.type],
          nullable: true,
          description: fieldDescription(field),
          // The key itself, else (only in a row of drifted records) the live key that carries it.
          resolve: (row) => read(Object.hasOwn(row, field.key) ? row[field.key] : renamedValue(row, field.key)),
        }),
      ];
    }),
  );
}

/**
 * A typed `where` as the engine's filters, one per field given. A field whose operators are all absent (an
 * operation's variables left out, `{ academicYear: { in: $years } }` without `years`) sets no condition; an
 * explicit null stays a condition (`eq: null` finds null and missing values).
 */
function whereOf(shape: DatasetShape, where: WhereShape | null | undefined): RecordFilter[] {
  if (where == null) return [];
  return shape.fields.flatMap((field) => {
    const filter = where[field.name];
    if (filter == null || Object.values(filter).every((operand) => operand === undefined)) return [];
    return [{ ...filter, field: field.key }];
  });
}

/**
 * The rows answered from records whose keys drifted from the shape, with the live key of each typed key they lack
 * (live-keys.ts): their typed fields read those. Rows of records that match the shape are never here.
 */
const renamedKeys = new WeakMap<JsonObject, ReadonlyMap<string, string>>();

function renamedValue(row: JsonObject, key: string): unknown {
  const live = renamedKeys.get(row)?.get(key);
  return live === undefined ? undefined : row[live];
}

/** Marks the rows of an answer made from drifted records, so that their typed fields read the live keys. */
function marked<Row extends JsonObject>(rows: readonly Row[], keys: LiveKeys): void {
  if (keys.renamed.size === 0) return;
  for (const row of rows) renamedKeys.set(row, keys.renamed);
}

/**
 * The engine's arguments for typed ones, in the live keys: a sort, group or sum on a key the records no longer have
 * is left out (its field answers null); a condition on one stays, and is refused naming the fields there are.
 */
interface EngineQuery {
  readonly where: readonly RecordFilter[];
  readonly orderBy: readonly RecordOrder[];
  readonly groupBy: readonly string[];
  readonly sum: readonly string[];
}

function liveQuery(keys: LiveKeys, query: EngineQuery): EngineQuery {
  if (!keys.drifted) return query;
  const live = (field: string): string[] => {
    const key = keys.key(field);
    return key === undefined ? [] : [key];
  };
  return {
    where: query.where.map((filter) => ({ ...filter, field: keys.key(filter.field) ?? filter.field })),
    orderBy: query.orderBy.flatMap((order) => live(order.field).map((field) => ({ ...order, field }))),
    groupBy: query.groupBy.flatMap(live),
    sum: query.sum.flatMap(live),
  };
}

function expectedShape(shape: DatasetShape): RecordShape {
  return { recordsPath: shape.recordsPath, keys: shape.fields };
}

/**
 * The records view of a read, as the untyped fields make it (the same version, so the same view, indexes and
 * cursors), its fields inferred, with the drift of an unfiltered payload's keys from the checked-in shape recorded
 * in the response, and the live key of each typed one.
 */
async function typedView(
  read: PayloadRead,
  shape: DatasetShape,
  query: JsonObject | null | undefined,
  context: Context,
): Promise<{ view: RecordsView; keys: LiveKeys }> {
  const queryString = canonicalQueryString(query);
  const view = recordsView(read.value, `${shape.code}?${queryString}#${read.version}`);
  await view.prepare();
  // Only the whole dataset says which keys the upstream has: a filtered one may lack keys its records lack.
  if (queryString === '') {
    const drift = context.shapeDrift.check(shape.code, read.version, expectedShape(shape), () => view.shape());
    if (drift !== undefined) context.freshness.recordShapeDrift(shape.code, drift);
  }
  return { view, keys: liveKeysOf(view, shape.fields) };
}

/**
 * The arguments of a typed field, as GraphQL hands them over after coercing them to the declared input types. The
 * types are made at run time from the shapes file, so TypeScript sees a map; RowsArgs and AggregateArgs say what
 * the declarations above guarantee.
 */
type ArgsShape = Readonly<Record<string, unknown>>;

interface RowsArgs {
  readonly query?: JsonObject | null;
  readonly where?: WhereShape | null;
  readonly orderBy?: readonly OrderShape[] | null;
  readonly first?: number | null;
  readonly after?: string | null;
}

interface AggregateArgs {
  readonly query?: JsonObject | null;
  readonly where?: WhereShape | null;
  /** Required by the schema. */
  readonly groupBy?: readonly string[];
  readonly sum?: readonly string[] | null;
}

function datasetField(t: PothosSchemaTypes.ObjectFieldBuilder<Types, DatasetEntry>, code: string) {
  return t.field({
    type: Dataset,
    description: 'The dataset, with its untyped fields.',
    extensions: returnsDatasets(() => [code]),
    resolve: (entry) => entry,
  });
}

/** One dataset's types and its field on TypedRecords. */
function datasetTypes(shape: DatasetShape, dataset: DatasetEntry) {
  const name = pascal(shape.code);
  const about = `${dataset.no}. ${dataset.title} (${dataset.titleEn})`;
  const Row = builder.objectRef<JsonObject>(`${name}Row`).implement({
    description: `A record of ${shape.code}, ${about}, typed by schema/shapes.json. Every field is nullable: the upstream may drop or change a key; \`node\` always has the whole record.`,
    fields: (t) => ({
      ...typedFields(shape, t),
      node: t.field({
        type: 'JSONObject',
        description: 'The whole record as the upstream sent it, keys the typed fields do not know included.',
        resolve: (row) => row,
      }),
    }),
  });
  const Connection = recordRowConnection(name, Row, {
    edge: `A ${name}Row and its cursor.`,
    cursor: 'Opaque; the same cursor the untyped `records` field gives for this record, filters and order.',
    connection: `A page of ${name}Row.`,
  });
  const Group = builder.objectRef<JsonObject>(`${name}Group`).implement({
    description: `One group of an aggregate of ${shape.code}: its group fields, each summed field's total, and \`count\`; the other fields are null.`,
    fields: (t) => ({
      ...typedFields(shape, t),
      count: t.int({
        description: 'How many records the group has.',
        resolve: (row) => (typeof row['count'] === 'number' ? row['count'] : 0),
      }),
      node: t.field({
        type: 'JSONObject',
        description: 'The group as the untyped `aggregate` field answers it.',
        resolve: (row) => row,
      }),
    }),
  });
  const fieldValues = (fields: readonly ShapeFieldEntry[]) =>
    Object.fromEntries(
      fields.map((field) => [field.name, { value: field.key, description: `Upstream key \`${field.key}\`.` }]),
    );
  const hasFields = shape.fields.length > 0;
  const Field = hasFields
    ? builder.enumType(`${name}Field`, { description: `A field of ${name}Row.`, values: fieldValues(shape.fields) })
    : undefined;
  const summable = shape.fields.filter((field) => field.type === 'number');
  const SumField =
    summable.length > 0
      ? builder.enumType(`${name}SumField`, {
          description: `A number field of ${name}Row.`,
          values: fieldValues(summable),
        })
      : undefined;
  const Where = hasFields
    ? builder.inputType(`${name}Where`, {
        description: `Conditions on the fields of ${name}Row; all given must hold.`,
        fields: (t): InputFieldMap =>
          Object.fromEntries(
            shape.fields.map((field) => [
              field.name,
              t.field({ type: FILTERS[field.type], description: `Upstream key \`${field.key}\`.` }),
            ]),
          ),
      })
    : undefined;
  const Order =
    Field === undefined
      ? undefined
      : builder.inputRef<OrderShape, false>(`${name}Order`).implement({
          description: `A sort key of ${name}Row. Missing and null values come last.`,
          fields: (t) => ({
            field: t.field({ type: Field, required: true, description: 'The field to sort by.' }),
            direction: t.field({ type: SortDirection, defaultValue: 'ASC', description: 'ASC (default) or DESC.' }),
          }),
        });

  const Records = builder.objectRef<DatasetEntry>(`${name}Records`).implement({
    description: `Typed records of ${about}.`,
    fields: (t): FieldMap => {
      const filters: InputFieldMap = {
        query: t.arg({ type: 'JSONObject', description: 'Upstream query parameters, as for `payload`.' }),
        ...(Where === undefined
          ? {}
          : { where: t.arg({ type: Where, description: 'Conditions that must all hold.' }) }),
      };
      const rowsArgs: InputFieldMap = {
        ...filters,
        ...(Order === undefined
          ? {}
          : {
              orderBy: t.arg({
                type: [Order],
                description: 'Sort keys, most significant first; the upstream order breaks ties.',
              }),
            }),
        first: t.arg.int({ defaultValue: DEFAULT_PAGE_SIZE, description: `Page size, 0 to ${MAX_PAGE_SIZE}.` }),
        after: t.arg.string({ description: 'The `endCursor` of the previous page.' }),
      };
      const rows = t.field({
        type: Connection,
        description: `The records, filtered, ordered and paged (at most ${MAX_PAGE_SIZE} a page), as \`records\` answers them.`,
        args: rowsArgs,
        ...payloadField(
          { reads: 'dataset', wholeBody: false, pageRows: (args: ArgsShape) => pageRows(args as RowsArgs) },
          loadDataset,
          async (read, _entry: DatasetEntry, given: ArgsShape, context) => {
            const args = given as RowsArgs;
            const orderBy: RecordOrder[] = (args.orderBy ?? []).map((order) => ({
              field: order.field,
              direction: order.direction ?? null,
            }));
            const { view, keys } = await typedView(read, shape, args.query, context);
            const { where, orderBy: order } = liveQuery(keys, {
              where: whereOf(shape, args.where),
              orderBy,
              groupBy: [],
              sum: [],
            });
            await view.prepare({ where, orderBy: order });
            const page = view.page({ where, orderBy: order, first: args.first, after: args.after });
            marked(
              page.edges.map((edge) => edge.node),
              keys,
            );
            return context.answerBudget.charge(page);
          },
        ),
      });
      if (Field === undefined) return { dataset: datasetField(t, shape.code), rows };
      const aggregateArgs: InputFieldMap = {
        ...filters,
        groupBy: t.arg({ type: [Field], required: true, description: 'Fields to group by (none: one overall group).' }),
        ...(SumField === undefined
          ? {}
          : { sum: t.arg({ type: [SumField], description: 'Number fields to add up.' }) }),
      };
      const aggregate = t.field({
        type: [Group],
        description:
          'Counts and sums per group, as `aggregate` answers them: groups in ascending order of their fields.',
        args: aggregateArgs,
        ...payloadField(
          { reads: 'dataset', wholeBody: false },
          loadDataset,
          async (read, _entry: DatasetEntry, given: ArgsShape, context) => {
            const args = given as AggregateArgs;
            const { view, keys } = await typedView(read, shape, args.query, context);
            const { where, groupBy, sum } = liveQuery(keys, {
              where: whereOf(shape, args.where),
              orderBy: [],
              groupBy: args.groupBy ?? [],
              sum: args.sum ?? [],
            });
            const query = { where, groupBy, sum };
            await view.prepare(query);
            const groups = view.aggregate(query);
            marked(groups, keys);
            return context.answerBudget.charge(groups);
          },
        ),
      });
      return { dataset: datasetField(t, shape.code), rows, aggregate };
    },
  });
  return Records;
}

const SHAPES = readShapesFile();

const TypedRecords = builder.objectRef<Record<string, never>>('TypedRecords').implement({
  description:
    "ระเบียนแบบมีชนิด: each dataset's records as GraphQL types learned from the upstream's own answers (schema/shapes.json). When the upstream no longer matches, the answer says so in `extensions.shapeDrift`.",
  fields: (t) =>
    Object.fromEntries(
      SHAPES.datasets.flatMap((shape) => {
        const dataset = DATASETS.find((entry) => entry.code === shape.code);
        if (dataset === undefined) return [];
        const Records = datasetTypes(shape, dataset);
        return [
          [
            camel(shape.code),
            t.field({
              type: Records,
              description: `${dataset.no}. ${dataset.title} (${dataset.titleEn})`,
              resolve: () => dataset,
            }),
          ],
        ];
      }),
    ),
});

builder.queryField('typedRecords', (t) =>
  t.field({
    type: TypedRecords,
    description: "ระเบียนแบบมีชนิด: typed access to every dataset's records (rows, filters, order, aggregates).",
    resolve: () => ({}),
  }),
);
