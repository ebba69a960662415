/**
 * The second upstream (other-upstream.ts) alone, to look at the server and the portal against records whose keys
 * are not the simulator's:
 *
 *   npx tsx test/helpers/other-upstream-main.ts        # OTHER_UPSTREAM_PORT, default 8889
 *   UPSTREAM_BASE_URL=http://127.0.0.1:8889 UPSTREAM_API_KEY=other-upstream-key npm start
 */
import { OTHER_UPSTREAM_KEY, startOtherUpstream } from './other-upstream.js';

const upstream = await startOtherUpstream({ port: Number(process.env['OTHER_UPSTREAM_PORT'] ?? 8889) });
process.stdout.write(
  `second upstream on ${upstream.url} (summary key: ${OTHER_UPSTREAM_KEY})\n` +
    `UPSTREAM_BASE_URL=${upstream.url} UPSTREAM_API_KEY=${OTHER_UPSTREAM_KEY} npm start\n`,
);
const stop = (): void => void upstream.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
