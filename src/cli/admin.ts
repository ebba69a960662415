/** `npm run admin -- …`: the operator's command line (admin-commands.ts) as its own process. */
import { runAdmin } from './admin-commands.js';

process.exitCode = await runAdmin(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
});
