import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from '@pothos/core';
import {
  Kind,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLFieldResolver,
  type GraphQLResolveInfo,
  type SelectionSetNode,
} from 'graphql';
import type { ResponseLedger } from './response-ledger.js';

/**
 * Charges every field's share of the answer to the request's byte budget (ResponseLedger.charge) as the field
 * produces it: a leaf its value's bytes, an object or a list of objects the keys its selection writes for each
 * object. Every byte of an answer is written by some field's value or some object's keys, so no alias, fragment,
 * directive, batch, incremental part or subscription event can carry more than the budget: the field that would
 * take the answer over it is null with RESPONSE_TOO_LARGE, and so is every field after it. No field declares
 * anything: the plugin prices each by the type it returns, so a new field is bounded without remembering to be.
 */
export class AnswerSizePlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override wrapResolve(
    resolver: GraphQLFieldResolver<unknown, Types['Context'], object>,
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): GraphQLFieldResolver<unknown, Types['Context'], object> {
    const { type } = fieldConfig;
    const itemKind = type.kind === 'List' ? type.type.kind : type.kind;
    const composite = itemKind === 'Object' || itemKind === 'Interface' || itemKind === 'Union';
    const sizeOf = composite ? objectsBytes : valueBytes;
    return (parent, args, context, info) => {
      const ledger = (context as { ledger: ResponseLedger }).ledger;
      const value = resolver(parent, args, context, info);
      if (isPromise(value)) return value.then((resolved) => charged(ledger, resolved, sizeOf(resolved, info)));
      return charged(ledger, value, sizeOf(value, info));
    };
  }
}

function charged<Value>(ledger: ResponseLedger, value: Value, bytes: number): Value {
  ledger.charge(bytes, sharedTextOf(value));
  return value;
}

/**
 * The largest value of known size whose JSON text answers share (server/response-cache/sliced-json.ts sharedJsonText),
 * written once per payload version, in slices. A larger one is walked in slices by each answer, and is its own.
 */
const SHARED_TEXT_MAX_BYTES = 8 * 1024 * 1024;

/** The value itself when answers write it from its shared text (see hasSharedText): what names that text. */
function sharedTextOf(value: unknown): object | undefined {
  return typeof value === 'object' && value !== null && hasSharedText(value) ? value : undefined;
}

function isPromise(value: unknown): value is Promise<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** The bytes of a leaf's value as JSON (an estimate: escapes are not counted). */
function valueBytes(value: unknown): number {
  return jsonBytes(value);
}

/** The bytes an object-typed field writes for the objects it returns: each object's braces and keys. */
function objectsBytes(value: unknown, info: GraphQLResolveInfo): number {
  if (value === null || value === undefined) return NULL_BYTES;
  const perObject = selectionBytes(info);
  return Array.isArray(value) ? 2 + itemsBytes(value, perObject) : perObject;
}

/** A list's items, nested lists included: each a separator and the bytes of one object, null or not. */
function itemsBytes(items: readonly unknown[], perObject: number): number {
  let total = 0;
  for (const item of items) total += 1 + (Array.isArray(item) ? 2 + itemsBytes(item, perObject) : perObject);
  return total;
}

const NULL_BYTES = 4;
/** What `__typename` writes at most: the longest type names are under 64 characters. */
const TYPENAME_VALUE_BYTES = 66;

const selectionSizes = new WeakMap<readonly FieldNode[], number>();

/**
 * The bytes one object written for this field's selection holds beside its values: braces, and for each response
 * key its quotes, colon and separator (`__typename` with its value, which no resolver writes). Every selection
 * counts whatever its type condition or directives (an upper bound). graphql-js gives each occurrence of a field
 * the same `fieldNodes`, so a list's objects compute it once.
 */
function selectionBytes(info: GraphQLResolveInfo): number {
  const known = selectionSizes.get(info.fieldNodes);
  if (known !== undefined) return known;
  let total = 2;
  const seen = new Set<string>();
  for (const node of info.fieldNodes) total += keysBytes(node.selectionSet, info.fragments, seen);
  selectionSizes.set(info.fieldNodes, total);
  return total;
}

function keysBytes(
  selectionSet: SelectionSetNode | undefined,
  fragments: Readonly<Record<string, FragmentDefinitionNode>>,
  seen: Set<string>,
): number {
  let total = 0;
  for (const selection of selectionSet?.selections ?? []) {
    if (selection.kind === Kind.FIELD) {
      const key = (selection.alias ?? selection.name).value;
      if (seen.has(key)) continue;
      seen.add(key);
      total += key.length + 4 + (selection.name.value === '__typename' ? TYPENAME_VALUE_BYTES : 0);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) total += keysBytes(selection.selectionSet, fragments, seen);
    else total += keysBytes(fragments[selection.name.value]?.selectionSet, fragments, seen);
  }
  return total;
}

const knownSizes = new WeakMap<object, number>();
// Values a field said it returns whole from the upstream cache (a payload version), within SHARED_TEXT_MAX_BYTES.
const sharedValues = new WeakSet<object>();

/**
 * Tells the plugin how many bytes `value` writes as JSON, when the field that made it knows (an upstream body's
 * length), so that a large value is never walked to be measured. Such a value is an upstream body as the cache
 * holds it, the same object for every answer that reads that version: answers write it from one shared text.
 */
export function rememberAnswerSize(value: unknown, bytes: number): void {
  if (typeof value !== 'object' || value === null) return;
  knownSizes.set(value, bytes);
  if (bytes <= SHARED_TEXT_MAX_BYTES) sharedValues.add(value);
}

/**
 * Whether answers carry `value` as one JSON text made once and shared (server/response-cache/sliced-json.ts), rather than each
 * writing its own: its bytes are then held once however many answers carry it.
 */
export function hasSharedText(value: object): boolean {
  return sharedValues.has(value);
}

/** What is known of an object's size in the answer, without measuring it: undefined when nothing is. */
export function knownAnswerSize(value: object): number | undefined {
  return knownSizes.get(value);
}

/**
 * The bytes of `value` as JSON. An object's size is computed once and kept while the object lives, so an alias
 * of a large value costs its bytes again but not the walk.
 */
export function jsonBytes(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return Buffer.byteLength(value) + 2;
    case 'number':
      return String(value).length;
    case 'boolean':
      return value ? 4 : 5;
    case 'object': {
      if (value === null) return NULL_BYTES;
      const known = knownSizes.get(value);
      if (known !== undefined) return known;
      const bytes = objectJsonBytes(value);
      knownSizes.set(value, bytes);
      return bytes;
    }
    case 'undefined':
      return NULL_BYTES;
    default:
      // A Date, a URL or another scalar's internal value: as long as its text.
      return String(value).length + 2;
  }
}

function objectJsonBytes(value: object): number {
  if (Array.isArray(value)) {
    let total = 2;
    for (const item of value as unknown[]) total += jsonBytes(item) + 1;
    return total;
  }
  if (value instanceof Date) return 26;
  if (value instanceof URL) return value.href.length + 2;
  let total = 2;
  for (const [key, item] of Object.entries(value)) total += Buffer.byteLength(key) + 4 + jsonBytes(item);
  return total;
}

const pluginName = 'answerSize';

SchemaBuilder.registerPlugin(pluginName, AnswerSizePlugin);

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      answerSize: AnswerSizePlugin<Types>;
    }
  }
}

export default pluginName;
