import { Kind, parse, type DocumentNode } from 'graphql';

/** The label of every operation name outside the bounded set. */
const OTHER_OPERATION = 'other';
/** The label of an operation without a name. */
const ANONYMOUS_OPERATION = 'Anonymous';

const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
const MAX_NAME_LENGTH = 64;

/** How long a shown name keeps its place without being seen: then a new name may take it. */
export const NAME_SLOT_IDLE_MS = 60 * 60 * 1_000;

export interface OperationNamesOptions {
  /** Names always shown as themselves (the persisted manifest's); they do not count against `limit`. */
  readonly known?: Iterable<string>;
  /** How many other distinct names are shown as themselves at once (METRICS_OPERATION_NAMES). */
  readonly limit: number;
  /** The clock of the slots' idleness; Date.now unless given. */
  readonly now?: () => number;
}

/**
 * Operation names as metric labels and span names. A caller chooses the name of its operation, so each new name
 * would be a new time series: only the known names and `limit` others are shown, every other one (and any name
 * that is not a plain GraphQL name of at most 64 characters) is `other`. The others hold their places while they
 * are used: a name unseen for NAME_SLOT_IDLE_MS gives its place to the next new name and its series are dropped
 * (`onExpired`), so a burst of made-up names squats the places for an hour, not until the next restart, and a
 * client's new operation is shown once they lapse. While a name holds its place it keeps its label on every path.
 */
export class OperationNames {
  private readonly known: ReadonlySet<string>;
  /** The shown names by when they were last seen, least recently seen first (Map keeps insertion order). */
  private readonly seen = new Map<string, number>();
  private readonly limit: number;
  private readonly now: () => number;
  private readonly expiredListeners: ((name: string) => void)[] = [];

  constructor(options: OperationNamesOptions) {
    this.known = new Set([...(options.known ?? [])].filter(isLabelName));
    this.limit = options.limit;
    this.now = options.now ?? Date.now;
  }

  /** The label of an operation called `name` (undefined or empty: anonymous). */
  label(name: string | undefined): string {
    if (name === undefined || name === '') return ANONYMOUS_OPERATION;
    if (this.known.has(name)) return name;
    const at = this.now();
    if (this.seen.has(name)) {
      this.seen.delete(name);
      this.seen.set(name, at);
      return name;
    }
    if (this.limit === 0 || !isLabelName(name)) return OTHER_OPERATION;
    if (this.seen.size >= this.limit && !this.expireOldest(at)) return OTHER_OPERATION;
    this.seen.set(name, at);
    return name;
  }

  /** Called with each name that lost its place, so the series labelled with it can be dropped. */
  onExpired(listener: (name: string) => void): void {
    this.expiredListeners.push(listener);
  }

  /** Frees the place of the least recently seen name if it has been idle long enough. */
  private expireOldest(at: number): boolean {
    const oldest = this.seen.entries().next();
    if (oldest.done === true || at - oldest.value[1] < NAME_SLOT_IDLE_MS) return false;
    const [name] = oldest.value;
    this.seen.delete(name);
    for (const listener of this.expiredListeners) listener(name);
    return true;
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
