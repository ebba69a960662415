/** `npm run shapes [-- --check]`: the record shapes command (shapes-commands.ts) as its own process. */
import { runShapes } from './shapes-commands.js';

process.exitCode = await runShapes(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
});
