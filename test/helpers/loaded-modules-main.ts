// The server's entry point (src/main.ts) with the modules it loads recorded (loaded-modules-hooks.ts): what
// test/idle-modules.test.ts spawns. The hooks are registered after tsx's, so they are TypeScript too.
import { register } from 'node:module';

register('./loaded-modules-hooks.ts', import.meta.url);
await import('../../src/main.js');
