/** The records engine: querying the records of a dataset payload of unknown shape. No GraphQL, no HTTP. */
export { recordsView, type RecordSequence, type RecordsView } from './view.js';
export { AnswerBudget } from './answer-budget.js';
export * from './limits.js';
export { RecordsError } from './errors.js';
export { MAX_EXAMPLES, type RecordField } from './fields.js';
export { ENVELOPE_KEYS, MAX_SEARCH_DEPTH, findRecords } from './locate.js';
export { RECORD_VALUE_TYPES, numericValue, type RecordValueType } from './values.js';
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
export {
  shapeDrift,
  SHAPE_FIELD_TYPES,
  type RecordShape,
  type Retyped,
  type ShapeDrift,
  type ShapeFieldType,
  type ShapeKey,
} from './shapes.js';
export {
  MAX_REPORTED_DRIFT_KEYS,
  MAX_REPORTED_KEY_LENGTH,
  ShapeDriftWatch,
  type DriftListener,
  type ReportedDrift,
} from './shape-drift.js';
export { FIELD_NAMES, fallbackName, nameKeys, type NamedKeys } from './field-names.js';
export { nextTurn } from './turns.js';
export { liveKeysOf, type LiveKeys } from './live-keys.js';
export {
  SHAPES_FILE,
  datasetShape,
  describeShapesDiff,
  formatShapesFile,
  parseShapesFile,
  readShapesFile,
  type DatasetShape,
  type ShapeFieldEntry,
  type ShapesFile,
} from './shapes-file.js';
