/**
 * What a request runs, measured as the review measured it: V8's precise coverage of one request on the assembled
 * server (a socket, the source), after a first request has loaded what the route loads lazily. A download is a
 * route of the front door: it must run none of yoga's pipeline and few of our files.
 */
import { Session } from 'node:inspector/promises';
import { describe, expect, it } from 'vitest';
import { useListeningStack } from '../helpers/stack.js';

/** The files of `src/` and of graphql-yoga with a function that ran during `request`. */
async function filesRunBy(request: () => Promise<void>): Promise<{ ours: string[]; yoga: string[] }> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
    // Taking the coverage resets its counts: what the next take shows ran in between.
    await session.post('Profiler.takePreciseCoverage');
    await request();
    const { result } = await session.post('Profiler.takePreciseCoverage');
    await session.post('Profiler.stopPreciseCoverage');
    const ran = result
      .filter((script) => script.functions.some((fn) => (fn.ranges[0]?.count ?? 0) > 0))
      .map((script) => script.url);
    // The simulator answers from this process in the test; in production it is another process, or none.
    const ours = ran
      .filter((url) => /\/src\/.*\.ts/.test(url) && !url.includes('/src/simulator/'))
      .map((url) => url.replace(/^.*\/src\//, 'src/'));
    const yoga = ran.filter((url) => url.includes('/graphql-yoga/'));
    return { ours: [...new Set(ours)].sort(), yoga };
  } finally {
    session.disconnect();
  }
}

describe('files a request runs', () => {
  // A payload fresh for the run: what is measured is the server's work, not the upstream call.
  const served = useListeningStack({ cache: { ttlS: 3_600, swrS: 0, staleIfErrorS: 0 } });

  it('runs a CSV download through the front door alone: no yoga stage, and no more source files than today', async () => {
    const url = `${served().origin}/datasets/ODS_COUNT_TEACHER_BY_JURISDICTION.csv?where.ACADEMIC_YEAR=2566`;
    const download = async (): Promise<void> => {
      const response = await fetch(url);
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    };
    // The first loads the writers and warms the payload; the second is what every later download runs.
    await download();
    const { ours, yoga } = await filesRunBy(download);
    console.log(`a CSV download ran ${ours.length} source files:\n  ${ours.join('\n  ')}`);
    expect(yoga).toEqual([]);
    // 58 files when a download was a yoga stage (the review's count), 44 as a route: 16 of them the records engine
    // that filters the rows. The goal is 30; this bound keeps what was won.
    expect(ours.length).toBeLessThanOrEqual(44);
  });
});
