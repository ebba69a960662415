import {
  getNamedType,
  getNullableType,
  isAbstractType,
  isCompositeType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';

/**
 * Attacks derived from the schema: every field reachable from a root that can make an answer large (a list, or a
 * JSON value), reached by the shortest path from its root, through interfaces (`node`, `nodes`) as through
 * objects. A new field is attacked without anyone writing a test for it.
 */
export interface AttackTarget {
  readonly root: 'query' | 'mutation' | 'subscription';
  /** `Type.field`, for the test's name. */
  readonly coordinate: string;
  readonly isList: boolean;
  /** The document with the target selected `copies` times under aliases (each copy's selection is the same). */
  document(copies: number, directive?: string): string;
}

export interface AttackOptions {
  /** Argument values for the largest answers: a dataset code, a Node id, a page size. */
  readonly datasetCode: string;
  readonly nodeId: string;
  readonly maxNodeIds: number;
  readonly maxPageSize: number;
  /** Types to leave out (the typed records of every dataset but the largest: their fields are the same shapes). */
  readonly skipType?: (name: string) => boolean;
}

export function attackTargets(schema: GraphQLSchema, options: AttackOptions): AttackTarget[] {
  const targets: AttackTarget[] = [];
  const roots = [
    ['query', schema.getQueryType()],
    ['mutation', schema.getMutationType()],
    ['subscription', schema.getSubscriptionType()],
  ] as const;
  for (const [root, rootType] of roots) {
    if (rootType === null || rootType === undefined) continue;
    const seen = new Set<string>([rootType.name]);
    // Each queue entry: an object type and how to write the selection around what goes inside it.
    const queue: { type: GraphQLObjectType; wrap: (inner: string) => string }[] = [{ type: rootType, wrap: (s) => s }];
    while (queue.length > 0) {
      const { type, wrap } = queue.shift() as (typeof queue)[number];
      for (const field of Object.values(type.getFields())) {
        if (field.name.startsWith('__')) continue;
        const call = `${field.name}${argumentsOf(field, options)}`;
        const named = getNamedType(field.type);
        const isList = isListType(getNullableType(field.type));
        if (isList || (isScalarType(named) && named.name.startsWith('JSON'))) {
          const selection = isCompositeType(named) ? ` { ${leafSelection(named, options)} }` : '';
          targets.push({
            root,
            coordinate: `${type.name}.${field.name}`,
            isList,
            document: (copies, directive = '') =>
              `${root} { ${wrap(
                Array.from({ length: copies }, (_, i) => `a${i}: ${call}${isList ? directive : ''}${selection}`).join(
                  ' ',
                ),
              )} }`,
          });
        }
        if (!isCompositeType(named)) continue;
        for (const object of objectTypesOf(schema, named)) {
          if (seen.has(object.name) || options.skipType?.(object.name) === true) continue;
          seen.add(object.name);
          const fragment = isAbstractType(named);
          queue.push({
            type: object,
            wrap: (inner) => wrap(`${call} { ${fragment ? `... on ${object.name} { ${inner} }` : inner} }`),
          });
        }
      }
    }
  }
  return targets;
}

function objectTypesOf(schema: GraphQLSchema, type: GraphQLCompositeType): readonly GraphQLObjectType[] {
  return isObjectType(type) ? [type] : schema.getPossibleTypes(type);
}

/** Every leaf field of the type (or of each of its object types) that takes no required argument. */
function leafSelection(type: GraphQLCompositeType, options: AttackOptions): string {
  if (isAbstractType(type)) return '__typename';
  const leaves = Object.values(type.getFields()).filter(
    (field) => isLeafType(getNamedType(field.type)) && field.args.every((arg) => !isNonNullType(arg.type)),
  );
  return ['__typename', ...leaves.map((field) => `${field.name}${argumentsOf(field, options)}`)].join(' ');
}

/** The arguments that make the field answer most: required ones filled, page sizes and id lists at their maximum. */
function argumentsOf(field: GraphQLField<unknown, unknown>, options: AttackOptions): string {
  const given = field.args.flatMap((arg) => {
    const value = argumentValue(arg, options);
    return value === undefined ? [] : [`${arg.name}: ${value}`];
  });
  return given.length === 0 ? '' : `(${given.join(', ')})`;
}

function argumentValue(arg: GraphQLArgument, options: AttackOptions): string | undefined {
  if (arg.name === 'first' && isScalarType(getNamedType(arg.type))) return String(options.maxPageSize);
  if (arg.name === 'ids') return JSON.stringify(Array.from({ length: options.maxNodeIds }, () => options.nodeId));
  if (!isNonNullType(arg.type)) return undefined;
  return literal(arg.type, arg.name, options);
}

function literal(type: GraphQLInputType, name: string, options: AttackOptions): string {
  const inner = getNullableType(type);
  if (isListType(inner)) return `[${literal(inner.ofType, name, options)}]`;
  if (isEnumType(inner))
    return inner.name === 'DatasetCode' ? options.datasetCode : (inner.getValues()[0]?.name ?? 'null');
  if (isInputObjectType(inner)) {
    const fields = Object.values(inner.getFields()).filter((field) => isNonNullType(field.type));
    return `{ ${fields.map((field) => `${field.name}: ${literal(field.type, field.name, options)}`).join(', ')} }`;
  }
  switch (inner.name) {
    case 'ID':
      return JSON.stringify(options.nodeId);
    case 'Int':
    case 'Float':
      return '1';
    case 'Boolean':
      return 'true';
    case 'EmailAddress':
      return '"attack@example.com"';
    case 'JSONObject':
      return '{}';
    case 'URL':
      return '"https://example.com/"';
    default:
      return JSON.stringify(`${name}-attack`);
  }
}

/**
 * Whether a type is one of the typed records types of a dataset other than `datasetCode` (e.g. OdsCountTeacherByYearRow
 * beside the largest dataset's): their fields have the same shapes over smaller data, so the largest stands for them.
 */
export function typedTypeOfAnotherDataset(schema: GraphQLSchema, datasetCode: string): (name: string) => boolean {
  const typed = schema.getType('TypedRecords');
  const prefixes = (isObjectType(typed) ? Object.values(typed.getFields()) : [])
    .map((field) => getNamedType(field.type).name.replace(/Records$/, ''))
    .filter((prefix) => prefix.toUpperCase() !== datasetCode.replace(/_/g, ''));
  return (name) => prefixes.some((prefix) => name.startsWith(prefix));
}
