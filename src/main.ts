/**
 * The server's process entry: `node dist/main.js` in production, `npm start` (tsx) in a checkout. It holds V8's
 * young generation at its initial size first (server/young-generation.ts), then loads and starts the server
 * (server/start.ts). The server is imported, not named among this module's imports, because a module's static imports
 * are all evaluated before its own first line, and their evaluation is the allocation the hold is for.
 */
import { holdYoungGeneration } from './server/young-generation.js';

holdYoungGeneration();
const { startServer } = await import('./server/start.js');
await startServer();
