import type { ObjectRef } from '@pothos/core';
import { builder } from '../builder.js';
import { payloadField } from '../payload-field.js';
import type { DatasetEntry } from '../../catalogue.js';
import type { Context } from '../context.js';
import type { JsonObject } from '../../json.js';
import {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  RECORD_VALUE_TYPES,
  recordsView,
  type PageInfo as PageInfoShape,
  type RecordConnection as RecordConnectionShape,
  type RecordEdge as RecordEdgeShape,
  type RecordField as RecordFieldShape,
  type RecordsView,
  type RecordsPageArgs,
  type RecordsQuery,
  type AggregateArgs,
} from '../../records/index.js';
import { canonicalQueryString } from '../../upstream/query.js';
import type { PayloadRead } from '../../upstream/source.js';
import { Dataset } from './dataset.js';
import { describedValues } from './described-values.js';

export const RecordValueType = builder.enumType('RecordValueType', {
  description: 'A JSON type seen among the values of a record field.',
  values: describedValues(
    RECORD_VALUE_TYPES.map((type) => type.toUpperCase() as Uppercase<typeof type>),
    (type) => `JSON ${type.toLowerCase()}`,
  ),
});

export const SortDirection = builder.enumType('SortDirection', {
  description: 'Ascending or descending.',
  values: {
    ASC: { value: 'ASC', description: 'Smallest first.' },
    DESC: { value: 'DESC', description: 'Largest first.' },
  } as const,
});

export const RecordFilter = builder.inputType('RecordFilter', {
  description:
    'A condition on one field of the records (the upstream\'s own key, Thai included; nested keys with a dotted path). Every operator given must hold; several filters must all hold. Numeric strings compare as numbers when both sides are numeric ("2566" = 2566).',
  fields: (t) => ({
    field: t.string({ required: true, description: 'The field, e.g. ACADEMIC_YEAR or ปีการศึกษา or place.code.' }),
    eq: t.field({ type: 'JSON', description: 'Equal to (null: null or missing).' }),
    ne: t.field({ type: 'JSON', description: 'Not equal to (missing values match).' }),
    in: t.field({ type: ['JSON'], description: 'Equal to one of these.' }),
    contains: t.field({
      type: 'JSON',
      description: 'Text containing this (case-insensitive), or an array holding it.',
    }),
    gte: t.field({ type: 'JSON', description: 'Greater than or equal to (numbers, or text in Thai order).' }),
    lte: t.field({ type: 'JSON', description: 'Less than or equal to.' }),
  }),
});

export const RecordOrder = builder.inputType('RecordOrder', {
  description: 'One sort key. Missing and null values come last.',
  fields: (t) => ({
    field: t.string({ required: true, description: 'The field to sort by.' }),
    direction: t.field({ type: SortDirection, defaultValue: 'ASC', description: 'ASC (default) or DESC.' }),
  }),
});

export const RecordField = builder.objectRef<RecordFieldShape>('RecordField').implement({
  description: 'A field inferred from the records: the upstream documents none, so they are read off the data.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The key, or a dotted path for a nested one.' }),
    types: t.field({
      type: [RecordValueType],
      description: 'The JSON types seen among its values.',
      resolve: (field) => field.types.map((type) => type.toUpperCase() as Uppercase<typeof type>),
    }),
    nullable: t.exposeBoolean('nullable', { description: 'Null or missing in at least one record.' }),
    examples: t.field({
      type: ['JSON'],
      description: 'Up to 5 distinct values.',
      resolve: (field) => [...field.examples],
    }),
    distinctCount: t.exposeInt('distinctCount', { description: 'How many distinct non-null values.' }),
    min: t.exposeFloat('min', { nullable: true, description: 'The smallest numeric value (numeric strings count).' }),
    max: t.exposeFloat('max', { nullable: true, description: 'The largest numeric value (numeric strings count).' }),
    numericStrings: t.exposeBoolean('numericStrings', {
      description: 'A text field whose values are all numbers written as text.',
    }),
  }),
});

export const PageInfo = builder.objectRef<PageInfoShape>('PageInfo').implement({
  description: 'Where this page is in the whole list (Relay cursor connections).',
  shareable: true,
  fields: (t) => ({
    hasNextPage: t.exposeBoolean('hasNextPage', {
      description: 'More records follow: ask again with `after: endCursor`.',
    }),
    hasPreviousPage: t.exposeBoolean('hasPreviousPage', { description: 'Always false: paging is forward only.' }),
    startCursor: t.exposeString('startCursor', {
      nullable: true,
      description: 'Cursor of the first record of the page.',
    }),
    endCursor: t.exposeString('endCursor', { nullable: true, description: 'Cursor of the last record of the page.' }),
  }),
});

const RecordEdge = builder.objectRef<RecordEdgeShape>('RecordEdge').implement({
  description: 'One record and its cursor.',
  fields: (t) => ({
    cursor: t.exposeString('cursor', {
      description: 'Opaque; valid for this version of the data and this where/orderBy.',
    }),
    node: t.field({
      type: 'JSONObject',
      description: 'The record (only the `select`ed fields when given).',
      resolve: (edge) => edge.node,
    }),
  }),
});

const RecordConnection = builder.objectRef<RecordConnectionShape>('RecordConnection').implement({
  description: 'A page of records.',
  fields: (t) => ({
    edges: t.field({
      type: [RecordEdge],
      description: 'The records of this page.',
      resolve: (connection) => [...connection.edges],
    }),
    pageInfo: t.field({ type: PageInfo, description: 'Paging state.', resolve: (connection) => connection.pageInfo }),
    totalCount: t.exposeInt('totalCount', { description: 'How many records match, over all pages.' }),
  }),
});

/**
 * A record as an object, so that a Relay `@connection` can page it: `RecordEdge.node` is a JSONObject, which
 * Relay's compiler refuses as a connection's node. No id: Relay keeps each row inside its connection.
 */
const RecordRow = builder.objectRef<JsonObject>('RecordRow').implement({
  description: 'One record, as an object (Relay pages a connection only of objects).',
  fields: (t) => ({
    values: t.field({
      type: 'JSONObject',
      description: 'The record (only the `select`ed fields when given).',
      resolve: (row) => row,
    }),
  }),
});

/**
 * A Relay connection of the page `records` answers, each record as the object `Row`, and its edge type, named
 * `<name>Connection` and `<name>Edge`: RecordRowConnection for `Dataset.rows`, and each typed dataset's own.
 */
export function recordRowConnection(
  name: string,
  Row: ObjectRef<typeof builder.$inferSchemaTypes, JsonObject>,
  about: { readonly edge: string; readonly cursor: string; readonly connection: string },
) {
  const Edge = builder.objectRef<RecordEdgeShape>(`${name}Edge`).implement({
    description: about.edge,
    fields: (t) => ({
      cursor: t.exposeString('cursor', { description: about.cursor }),
      node: t.field({ type: Row, description: 'The record.', resolve: (edge) => edge.node }),
    }),
  });
  return builder.objectRef<RecordConnectionShape>(`${name}Connection`).implement({
    description: about.connection,
    fields: (t) => ({
      edges: t.field({
        type: [Edge],
        description: 'The records of this page with their cursors.',
        resolve: (connection) => [...connection.edges],
      }),
      nodes: t.field({
        type: [Row],
        description: 'The records of this page.',
        resolve: (connection) => connection.edges.map((edge) => edge.node),
      }),
      pageInfo: t.field({ type: PageInfo, description: 'Paging state.', resolve: (connection) => connection.pageInfo }),
      totalCount: t.exposeInt('totalCount', { description: 'How many records match, over all pages.' }),
    }),
  });
}

const RecordRowConnection = recordRowConnection('RecordRow', RecordRow, {
  edge: 'One record and its cursor.',
  cursor: 'Opaque; the same cursor `records` gives for this record, filters and order.',
  connection: "A page of records, shaped for Relay's `@connection`: the page `records` answers, each record an object.",
});

type QueryArg = { readonly query?: JsonObject | null };

/** Reads a dataset's payload for a records field, untyped or typed: `query` as for `payload`. */
export function loadDataset(dataset: DatasetEntry, args: QueryArg, context: Context): Promise<PayloadRead> {
  return context.loaders.datasetPayload.load({ code: dataset.code, queryString: canonicalQueryString(args.query) });
}

/**
 * The records view of a dataset payload read, ready for a query. The view (records found, fields inferred,
 * columns, indexes) is built once per payload version and kept with the cached payload, so every request after
 * the first only filters and pages; what is not built yet is built a piece per turn of the event loop, so that
 * neither a large payload nor many records fields in one operation hold the event loop.
 */
async function viewOf(
  read: PayloadRead,
  dataset: DatasetEntry,
  args: QueryArg & RecordsQuery,
  context: Context,
): Promise<RecordsView> {
  const queryString = canonicalQueryString(args.query);
  const view = recordsView(read.value, `${dataset.code}?${queryString}#${read.version}`);
  await view.prepare(args);
  if (queryString === '') context.shapes.observe(dataset.code, read.version, view.fingerprint());
  return view;
}

/**
 * The rows a records page asks for, by which it is priced (cost.ts recordsPageCost): `first`, whose default the
 * argument declares.
 */
export const pageRows = (args: { readonly first?: number | null }): number | null | undefined => args.first;

/**
 * The options of a records field: reads the dataset's payload, then answers from its records view; a page is
 * priced by the rows it asks for (`rows`: pageRows).
 */
function recordsField<Args extends QueryArg & RecordsQuery, Value>(
  answer: (view: RecordsView, args: Args, context: Context) => Value,
  rows?: (args: Args) => number | null | undefined,
) {
  return payloadField<DatasetEntry, Args, Value>(
    { reads: 'dataset', wholeBody: false, ...(rows === undefined ? {} : { pageRows: rows }) },
    loadDataset,
    async (read, dataset: DatasetEntry, args: Args, context) =>
      answer(await viewOf(read, dataset, args, context), args, context),
  );
}

builder.objectFields(Dataset, (t) => {
  const queryArg = () => t.arg({ type: 'JSONObject', description: 'Upstream query parameters, as for `payload`.' });
  const whereArg = () => t.arg({ type: [RecordFilter], description: 'Conditions that must all hold.' });
  const pageArgs = () => ({
    query: queryArg(),
    where: whereArg(),
    orderBy: t.arg({
      type: [RecordOrder],
      description: 'Sort keys, most significant first; the upstream order breaks ties.',
    }),
    select: t.arg.stringList({ description: 'Only these fields in each node (dotted paths become flat keys).' }),
    first: t.arg.int({ defaultValue: DEFAULT_PAGE_SIZE, description: `Page size, 0 to ${MAX_PAGE_SIZE}.` }),
    after: t.arg.string({ description: 'The `endCursor` of the previous page.' }),
  });
  // `records` and `rows` answer the same page: one view, one cursor, one charge against the operation's budget.
  const recordsPage = () =>
    recordsField<RecordsPageArgs & QueryArg, RecordConnectionShape>(
      (view, args, context) =>
        context.answerBudget.charge(
          view.page({
            where: args.where,
            orderBy: args.orderBy,
            select: args.select,
            first: args.first,
            after: args.after,
          }),
        ),
      pageRows,
    );
  return {
    records: t.field({
      type: RecordConnection,
      description: `ระเบียน: the payload's records, filtered, ordered, projected and paged (Relay connection; at most ${MAX_PAGE_SIZE} a page). Null with NOT_TABULAR when the payload holds no array of records; \`payload\` still works.`,
      args: pageArgs(),
      ...recordsPage(),
    }),
    rows: t.field({
      type: RecordRowConnection,
      description: `ระเบียน: the page \`records\` answers, with the same arguments and cursors, each record an object (\`values\`), so that Relay's \`@connection\` can page it. Null with NOT_TABULAR as \`records\`.`,
      args: pageArgs(),
      ...recordsPage(),
    }),
    recordCount: t.int({
      description: 'จำนวนระเบียน: how many records match `where` (all of them without it).',
      args: { query: queryArg(), where: whereArg() },
      ...recordsField((view, args: Pick<RecordsPageArgs, 'where'> & QueryArg) => view.count(args.where)),
    }),
    fields: t.field({
      type: [RecordField],
      description: 'เขตข้อมูล: the fields of the records, inferred from the data: types, examples, ranges.',
      args: { query: queryArg() },
      ...recordsField((view, _args: QueryArg) => [...view.fields()]),
    }),
    recordsPath: t.string({
      description: 'Where in the payload the records were found: "" (the body itself), "data", "result.items"…',
      args: { query: queryArg() },
      ...recordsField((view, _args: QueryArg) => view.recordsPath),
    }),
    aggregate: t.field({
      type: ['JSONObject'],
      description:
        'ผลรวม: sums of fields per group, e.g. groupBy ["JURISDICTION_NAME"], sum ["TOTAL"]: one object per group with its keys, each sum under its field name, and `count`.',
      args: {
        query: queryArg(),
        groupBy: t.arg.stringList({ required: true, description: 'Fields to group by (none: one overall row).' }),
        sum: t.arg.stringList({ required: true, description: 'Fields to add up (numbers and numeric strings).' }),
        where: whereArg(),
      },
      ...recordsField((view, args: AggregateArgs & QueryArg, context) =>
        context.answerBudget.charge(view.aggregate({ groupBy: args.groupBy, sum: args.sum, where: args.where })),
      ),
    }),
    shapeFingerprint: t.string({
      description: 'A stable hash of the inferred field set: when it changes, the upstream changed its fields.',
      args: { query: queryArg() },
      ...recordsField((view, _args: QueryArg) => view.fingerprint()),
    }),
  };
});
