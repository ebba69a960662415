/** The records engine: querying the records of a dataset payload of unknown shape. No GraphQL, no HTTP. */
export { recordsView, type RecordsView } from './view.js';
export { AnswerBudget } from './budget.js';
export * from './limits.js';
export { RecordsError, RECORDS_ERROR_CODES, type RecordsErrorCode } from './errors.js';
export { MAX_EXAMPLES, type RecordField } from './fields.js';
export { ENVELOPE_KEYS, MAX_SEARCH_DEPTH } from './locate.js';
export { RECORD_VALUE_TYPES, type RecordValueType } from './values.js';
export type {
  AggregateArgs,
  PageInfo,
  RecordConnection,
  RecordEdge,
  RecordFilter,
  RecordOrder,
  RecordsPageArgs,
  RecordsQuery,
  SortDirection,
} from './types.js';
