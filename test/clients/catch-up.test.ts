import { describe, expect, it } from 'vitest';
import type { DatasetCode } from '../../src/catalogue.js';
import { useListeningStack } from '../helpers/stack.js';

const CODE: DatasetCode = 'ODS_COUNT_TEACHER_BY_YEAR';
// docs/app-developers/subscriptions.md: catching up after a lost connection.
const VERSIONS = '{ datasets { id version changedAt } }';

describe('catching up after a lost connection: versions as a cacheable GET', () => {
  const listening = useListeningStack();
  const get = (headers: Record<string, string> = {}): Promise<Response> =>
    fetch(`${listening().origin}/graphql?query=${encodeURIComponent(VERSIONS)}`, { headers });

  it('answers 304 to If-None-Match until a dataset changes, then the new version', async () => {
    const { stack } = listening();
    await stack.live.watcher.check();
    const first = await get();
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag');
    expect(etag).not.toBeNull();
    const before = ((await first.json()) as { data: { datasets: { id: string; version: string }[] } }).data.datasets;

    const unchanged = await get({ 'if-none-match': etag ?? '' });
    expect(unchanged.status).toBe(304);

    const revision = await fetch(`${stack.simulator.url}/__simulator/datasets/${CODE}/revisions`, { method: 'POST' });
    expect(revision.status).toBe(201);
    await stack.live.watcher.check();
    const changed = await get({ 'if-none-match': etag ?? '' });
    expect(changed.status).toBe(200);
    const after = ((await changed.json()) as { data: { datasets: { id: string; version: string }[] } }).data.datasets;
    const moved = after.filter((dataset, index) => dataset.version !== before[index]?.version);
    expect(moved.map((dataset) => dataset.id)).toEqual([`ds_${CODE}`]);
  });
});
