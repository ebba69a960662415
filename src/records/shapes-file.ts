/**
 * schema/shapes.json: every dataset's record shape with the GraphQL name of each key, sampled from the upstream
 * by `npm run shapes` and checked in like the SDL. The typed schema is built from this file, never from a live
 * answer, so the schema and the generated client types change only when a reviewed file does.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { DATASET_CODES, type DatasetCode } from '../catalogue.js';
import { PACKAGE_ROOT } from '../package-files.js';
import { isFieldName, nameKeys } from './field-names.js';
import { SHAPE_FIELD_TYPES, type RecordShape, type ShapeKey } from './shapes.js';

/** Where the file is, in the package (src/package-files.ts): the same for the source and the build. */
export const SHAPES_FILE = join(PACKAGE_ROOT, 'schema', 'shapes.json');

export interface ShapeFieldEntry extends ShapeKey {
  /** The GraphQL name: FIELD_NAMES's, else the fallback (see field-names.ts). */
  readonly name: string;
}

export interface DatasetShape {
  readonly code: DatasetCode;
  readonly recordsPath: string;
  /** In code-unit order of the key. */
  readonly fields: readonly ShapeFieldEntry[];
}

export interface ShapesFile {
  /** Every dataset, in catalogue order. */
  readonly datasets: readonly DatasetShape[];
}

const fileSchema = z.object({
  datasets: z
    .array(
      z.object({
        code: z.enum(DATASET_CODES),
        recordsPath: z.string().max(1_000),
        fields: z
          .array(
            z.object({
              key: z.string().min(1).max(1_000),
              name: z.string().max(200).refine(isFieldName, 'not a GraphQL field name'),
              type: z.enum(SHAPE_FIELD_TYPES),
              nullable: z.boolean(),
            }),
          )
          .max(10_000)
          .refine((fields) => new Set(fields.map((field) => field.key)).size === fields.length, 'a key is listed twice')
          .refine(
            (fields) => new Set(fields.map((field) => field.name)).size === fields.length,
            'a name is given twice',
          ),
      }),
    )
    .refine(
      (datasets) => datasets.map((dataset) => dataset.code).join() === DATASET_CODES.join(),
      `must list every dataset once, in catalogue order: ${DATASET_CODES.join(', ')}`,
    ),
});

/** Reads and checks a shapes file; throws an Error naming every problem. */
export function parseShapesFile(text: string): ShapesFile {
  const parsed = fileSchema.safeParse(JSON.parse(text));
  if (!parsed.success) {
    throw new Error(
      `not a shapes file: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
    );
  }
  return parsed.data;
}

export function readShapesFile(path: URL | string = SHAPES_FILE): ShapesFile {
  return parseShapesFile(readFileSync(path, 'utf8'));
}

/** The file's text: two-space JSON with a final newline, one field per line, so a diff reads well in review. */
export function formatShapesFile(file: ShapesFile): string {
  const datasets = file.datasets.map((dataset) => {
    const fields = dataset.fields.map((field) => `        ${JSON.stringify(field)}`).join(',\n');
    const head = `      "code": ${JSON.stringify(dataset.code)},\n      "recordsPath": ${JSON.stringify(dataset.recordsPath)},\n`;
    return `    {\n${head}      "fields": [${fields === '' ? '' : `\n${fields}\n      `}]\n    }`;
  });
  return `{\n  "datasets": [\n${datasets.join(',\n')}\n  ]\n}\n`;
}

/** A dataset's entry from its live shape: each key named (see nameKeys). */
export function datasetShape(
  code: DatasetCode,
  shape: RecordShape,
): { shape: DatasetShape; unmapped: readonly string[] } {
  const { names, unmapped } = nameKeys(shape.keys.map((key) => key.key));
  const fields = shape.keys.map((key) => ({
    key: key.key,
    name: names.get(key.key) ?? key.key,
    type: key.type,
    nullable: key.nullable,
  }));
  return { shape: { code, recordsPath: shape.recordsPath, fields }, unmapped };
}

/**
 * How `actual` differs from `expected`, one readable line per difference (`-` what the file says and the upstream
 * no longer does, `+` what the upstream does and the file does not), or none.
 */
export function describeShapesDiff(expected: ShapesFile, actual: ShapesFile): string[] {
  const lines: string[] = [];
  for (const now of actual.datasets) {
    const before = expected.datasets.find((dataset) => dataset.code === now.code);
    if (before === undefined) {
      lines.push(`+ ${now.code}: not in the file`);
      continue;
    }
    if (before.recordsPath !== now.recordsPath) {
      lines.push(
        `~ ${now.code}: records at ${JSON.stringify(now.recordsPath)}, the file says ${JSON.stringify(before.recordsPath)}`,
      );
    }
    const field = (entry: ShapeFieldEntry): string =>
      `${JSON.stringify(entry.key)} → ${entry.name}: ${entry.type}${entry.nullable ? ', nullable' : ''}`;
    const live = new Map(now.fields.map((entry) => [entry.key, entry]));
    const known = new Map(before.fields.map((entry) => [entry.key, entry]));
    for (const entry of before.fields) {
      const current = live.get(entry.key);
      if (current === undefined) lines.push(`- ${now.code}: ${field(entry)} (no record has this key any more)`);
      else if (field(current) !== field(entry)) lines.push(`~ ${now.code}: ${field(entry)}  became  ${field(current)}`);
    }
    for (const entry of now.fields) {
      if (!known.has(entry.key)) lines.push(`+ ${now.code}: ${field(entry)} (a new key)`);
    }
  }
  return lines;
}
