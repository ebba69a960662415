// Module customization hooks (registered by loaded-modules-main.ts): every module the process loads, ESM or the
// CommonJS entry an import reaches, is appended to LOADED_MODULES_FILE as its URL, in load order.
import { appendFileSync } from 'node:fs';

const file = process.env['LOADED_MODULES_FILE'];
if (file === undefined) throw new Error('loaded-modules-hooks.ts needs LOADED_MODULES_FILE');

export async function load(
  url: string,
  context: unknown,
  nextLoad: (url: string, context: unknown) => Promise<unknown>,
): Promise<unknown> {
  appendFileSync(file as string, `${url}\n`);
  return nextLoad(url, context);
}
