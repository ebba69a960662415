// The server's entry point (src/main.ts, or the build's dist/main.js with LOADED_MODULES_ENTRY=build) with the
// modules it loads recorded (loaded-modules-hooks.ts): what test/e2e/idle-modules.test.ts spawns, from the run's
// transpiled copy (so the hooks are the .js beside this file).
import { register } from 'node:module';
import { extname } from 'node:path';

register(`./loaded-modules-hooks${extname(new URL(import.meta.url).pathname)}`, import.meta.url);
await import(process.env['LOADED_MODULES_ENTRY'] === 'build' ? '../../dist/main.js' : '../../src/main.js');
