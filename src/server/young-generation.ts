/**
 * Start-up allocates some 30 MB that mostly lives on (the modules' code and closures, the schema, the catalogue). V8
 * reads those survivals as a workload that needs a larger young generation and doubles it at each of a few
 * scavenges, up to 2 × 16 MB, which an idle process then keeps resident until V8's memory reducer runs minutes
 * later. Holding the growth factor at 1 while the server starts keeps the young generation at its initial 2 × 1 MB;
 * handing V8 back its own factor once the server listens lets it grow under load exactly as before. The idle
 * process is about 13 MB smaller (`npm run bench`; docs/operators/sizing.md) and serves as fast: with and without
 * the hold, the young generation was at its maximum after 2 s of response-cache misses, and five rounds of 8 s
 * served a median 1,022 and 1,009 misses a second.
 *
 * `node --semi-space-growth-factor=…`, `--max-semi-space-size` (also in NODE_OPTIONS) or `--min-semi-space-size` (which
 * Node refuses in NODE_OPTIONS, 20 to 26) turn the hold off: an operator who sizes the young generation gets exactly
 * what was asked for.
 */
import { setFlagsFromString } from 'node:v8';

/** V8's own default for --semi-space-growth-factor, the same from Node 20 to 26 (`node --v8-options`). */
const V8_GROWTH_FACTOR = 2;

// An operator's own V8 flags for the young generation win: the hold is only for the default configuration. V8 reads
// a flag's dashes and underscores alike.
const operatorSizesIt = /--(max|min)[-_]semi[-_]space[-_]size|--semi[-_]space[-_]growth[-_]factor/.test(
  `${process.env['NODE_OPTIONS'] ?? ''} ${process.execArgv.join(' ')}`,
);

/** Keeps the young generation at its size: called before the server's modules load (main.ts). */
export function holdYoungGeneration(): void {
  if (!operatorSizesIt) setFlagsFromString('--semi-space-growth-factor=1');
}

/** Lets the young generation grow again: called once the server listens. */
export function releaseYoungGeneration(): void {
  if (!operatorSizesIt) setFlagsFromString(`--semi-space-growth-factor=${V8_GROWTH_FACTOR}`);
}
