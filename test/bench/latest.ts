import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where each part of the bench keeps its last figures, one section a part, beside the others' (.bench/ is ignored). */
export const LATEST_FILE = fileURLToPath(new URL('../../.bench/latest.json', import.meta.url));

/** Replaces one section of LATEST_FILE with `figures`, keeping every other section as the last run left it. */
export function storeFigures(section: string, figures: Record<string, unknown>): void {
  mkdirSync(dirname(LATEST_FILE), { recursive: true });
  let latest: Record<string, unknown> = {};
  try {
    latest = JSON.parse(readFileSync(LATEST_FILE, 'utf8')) as Record<string, unknown>;
  } catch {
    // No earlier run: the file holds this section alone.
  }
  writeFileSync(LATEST_FILE, JSON.stringify({ ...latest, [section]: figures }, null, 2));
}
