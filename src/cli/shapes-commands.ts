/**
 * `npm run shapes`: reads every dataset from the configured upstream (the embedded simulator when
 * UPSTREAM_BASE_URL is unset), infers its record shape with the records engine, and writes schema/shapes.json,
 * which the typed schema is built from. `npm run shapes -- --check` writes nothing and exits 1, with the
 * differences, when the upstream no longer matches the file: an operator runs it in their own CI against the
 * real service. shapes.ts runs it as its own process; tests call runShapes in theirs.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { DATASETS } from '../catalogue.js';
import { loadConfig } from '../config.js';
import {
  SHAPES_FILE,
  datasetShape,
  describeShapesDiff,
  formatShapesFile,
  parseShapesFile,
  readShapesFile,
  recordsView,
  type DatasetShape,
  type ShapesFile,
} from '../records/index.js';
import { createUpstreamClient, type UpstreamClient } from '../upstream/client.js';

const USAGE = `Usage: npm run shapes [-- --check]

Reads every dataset from the upstream and writes the record shapes the typed schema is built from to
schema/shapes.json (then run 'npm run codegen' and commit both).

Options:
  --check      write nothing; exit 1 with the differences when the upstream no longer matches the file
  -h, --help   show this help

Environment: the server's (UPSTREAM_BASE_URL, UPSTREAM_API_KEY, UPSTREAM_TIMEOUT_MS, UPSTREAM_CA_FILE, …);
without UPSTREAM_BASE_URL the embedded simulator is read.
`;

export interface ShapesIo {
  readonly env: NodeJS.ProcessEnv;
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  /** The file to write or check; schema/shapes.json unless given. */
  readonly file?: URL | string;
}

/** Runs the command; resolves to the exit status: 0 done or matching, 1 differing or failed, 2 bad usage. */
export async function runShapes(argv: readonly string[], io: ShapesIo): Promise<number> {
  let check: boolean;
  try {
    const { values } = parseArgs({
      args: [...argv],
      options: { check: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    });
    if (values.help === true) {
      io.stdout.write(USAGE);
      return 0;
    }
    check = values.check === true;
  } catch (error) {
    io.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  const loaded = loadConfig(io.env);
  if (!loaded.ok) {
    io.stderr.write(`Invalid configuration:\n${loaded.problems.map((problem) => `  ${problem}\n`).join('')}`);
    return 1;
  }
  const { upstream: settings } = loaded.config;
  const closers: (() => Promise<void>)[] = [];
  try {
    let { baseUrl, apiKey } = settings;
    if (baseUrl === undefined) {
      const { startEmbeddedUpstream } = await import('../simulator/embedded.js');
      const embedded = await startEmbeddedUpstream(settings);
      closers.push(() => embedded.close());
      ({ baseUrl, apiKey } = embedded);
      io.stderr.write('UPSTREAM_BASE_URL is not set: reading the embedded simulated upstream\n');
    }
    const client = createUpstreamClient({ ...settings, baseUrl, apiKey, logger: pino({ level: 'silent' }) });
    closers.push(() => client.close());
    const { file, unmapped } = await sample(client);
    for (const line of unmapped) io.stderr.write(`${line}\n`);
    const target = io.file ?? SHAPES_FILE;
    if (!check) {
      // The server refuses a file it cannot build a schema from (see parseShapesFile): never write one.
      const text = formatShapesFile(file);
      parseShapesFile(text);
      writeFileSync(target, text);
      io.stdout.write(
        `wrote ${String(target instanceof URL ? target.pathname : target)}: ${file.datasets.length} datasets\n`,
      );
      return 0;
    }
    const differences = describeShapesDiff(readShapesFile(target), file);
    if (differences.length === 0) {
      io.stdout.write(`the upstream matches ${String(target instanceof URL ? target.pathname : target)}\n`);
      return 0;
    }
    io.stdout.write(
      `The upstream no longer matches the checked-in shapes (- the file, + the upstream, ~ changed):\n` +
        `${differences.map((line) => `  ${line}\n`).join('')}` +
        `Typed fields of vanished keys answer null and new keys are only in \`node\`: run 'npm run shapes' and ` +
        `'npm run codegen', review the diff, and release the new schema to clients.\n`,
    );
    return 1;
  } catch (error) {
    io.stderr.write(`shapes: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    for (const close of closers.reverse()) await close();
  }
}

/** Every dataset's shape, read one after another (the upstream is one service; this runs rarely). */
async function sample(client: UpstreamClient): Promise<{ file: ShapesFile; unmapped: string[] }> {
  const datasets: DatasetShape[] = [];
  const unmapped: string[] = [];
  for (const { code } of DATASETS) {
    const answer = await client.getDataset(code, '');
    if (answer.kind !== 'body') throw new Error(`${code}: the upstream answered 304 to an unconditional GET`);
    const named = datasetShape(code, recordsView(answer.value, 'shapes').shape());
    datasets.push(named.shape);
    for (const key of named.unmapped) {
      const name = named.shape.fields.find((field) => field.key === key)?.name ?? '';
      unmapped.push(
        `${code}: the key ${JSON.stringify(key)} has no name in src/records/field-names.ts; it is called ${name}`,
      );
    }
  }
  return { file: { datasets }, unmapped };
}
