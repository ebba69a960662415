import { Kind, parse, type DocumentNode } from 'graphql';

/** The label of every operation name outside the bounded set. */
const OTHER_OPERATION = 'other';
/** The label of an operation without a name. */
const ANONYMOUS_OPERATION = 'Anonymous';

const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
const MAX_NAME_LENGTH = 64;

export interface OperationNamesOptions {
  /** Names always shown as themselves (the persisted manifest's); they do not count against `limit`. */
  readonly known?: Iterable<string>;
  /** How many other distinct names are shown as themselves, first come first served (METRICS_OPERATION_NAMES). */
  readonly limit: number;
}

/**
 * Operation names as metric labels and span names. A caller chooses the name of its operation, so each new name
 * would be a new time series: only the known names and the first `limit` others seen are shown, every later one
 * (and any name that is not a plain GraphQL name of at most 64 characters) is `other`. A name once shown stays
 * shown and `other` stays `other`, so the same operation carries the same label on every path and every scrape.
 */
export class OperationNames {
  private readonly known: ReadonlySet<string>;
  private readonly seen = new Set<string>();
  private readonly limit: number;

  constructor(options: OperationNamesOptions) {
    this.known = new Set([...(options.known ?? [])].filter(isLabelName));
    this.limit = options.limit;
  }

  /** The label of an operation called `name` (undefined or empty: anonymous). */
  label(name: string | undefined): string {
    if (name === undefined || name === '') return ANONYMOUS_OPERATION;
    if (this.known.has(name) || this.seen.has(name)) return name;
    if (this.seen.size >= this.limit || !isLabelName(name)) return OTHER_OPERATION;
    this.seen.add(name);
    return name;
  }
}

/** The operation names of a manifest's documents; a document that does not parse is skipped. */
export function operationNamesIn(documents: Iterable<string>): string[] {
  const names: string[] = [];
  for (const document of documents) {
    let parsed: DocumentNode;
    try {
      parsed = parse(document, { noLocation: true });
    } catch {
      continue;
    }
    for (const definition of parsed.definitions) {
      if (definition.kind === Kind.OPERATION_DEFINITION && definition.name !== undefined)
        names.push(definition.name.value);
    }
  }
  return names;
}

function isLabelName(name: string): boolean {
  return name.length <= MAX_NAME_LENGTH && NAME.test(name);
}
