/**
 * What each dataset's records measure and describe: its fields as schema/shapes.json records them (the upstream's
 * key, its type), with the Thai and English labels, unit and description of catalogue-metadata.ts's definitions.
 * What schema.org's `variableMeasured` and a CSV's CSVW metadata state, read once from disk.
 */
import type { DatasetCode } from '../catalogue.js';
import { FIELD_DEFINITIONS } from '../catalogue-metadata.js';
import { readShapesFile, type ShapeFieldType } from '../records/index.js';

export interface Variable {
  /** The upstream's key, as the records and a CSV's header write it. */
  readonly key: string;
  /** Its GraphQL name (records/field-names.ts). */
  readonly name: string;
  readonly type: ShapeFieldType;
  readonly nullable: boolean;
  /** Thai and English labels; the key itself when the field has no definition. */
  readonly label: string;
  readonly labelEn: string;
  readonly unit: string | undefined;
  readonly description: string | undefined;
}

let variables: ReadonlyMap<DatasetCode, readonly Variable[]> | undefined;

/** A dataset's fields, in the shapes file's order (the code-unit order of their keys). */
export function variablesOf(code: DatasetCode): readonly Variable[] {
  variables ??= new Map(
    readShapesFile().datasets.map((shape) => [
      shape.code,
      shape.fields.map((field) => {
        const definition = FIELD_DEFINITIONS[field.name];
        return {
          key: field.key,
          name: field.name,
          type: field.type,
          nullable: field.nullable,
          label: definition?.label ?? field.key,
          labelEn: definition?.labelEn ?? field.key,
          unit: definition?.unit,
          description: definition?.description,
        };
      }),
    ]),
  );
  return variables.get(code) ?? [];
}
