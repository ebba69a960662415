/**
 * The dates catalogues publish survive a restart: the watcher's looks are stored (SQLite here, the same code on
 * PostgreSQL), so a server started again on the same store answers CKAN's metadata_created and metadata_modified,
 * DCAT's dct:issued and dct:modified and schema.org's datePublished and dateModified on its first request, and an
 * incremental harvest (`fq=metadata_modified:[T TO *]`) finds only what changed after T.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { AccessService } from '../../src/access/model.js';
import { loadServerKit } from '../helpers/server-kit.js';
import { STORE_SETTINGS } from '../helpers/settings.js';
import { openTestStore, startStack, TEST_ADMIN_TOKEN, type Stack } from '../helpers/stack.js';

type Json = Record<string, unknown>;

const { openAccessService } = await loadServerKit();

async function action(stack: Stack, path: string): Promise<Json> {
  const response = await stack.app.fetch(`http://localhost/api/3/action/${path}`);
  expect(response.status).toBe(200);
  return (await response.json()) as Json;
}

async function dates(stack: Stack): Promise<Map<string, { created: unknown; modified: unknown }>> {
  const found = (await action(stack, 'package_search?rows=100'))['result'] as Json;
  return new Map(
    (found['results'] as Json[]).map((pkg) => [
      String(pkg['name']),
      { created: pkg['metadata_created'], modified: pkg['metadata_modified'] },
    ]),
  );
}

async function changedSince(stack: Stack, since: string): Promise<string[]> {
  const fq = encodeURIComponent(`metadata_modified:[${since} TO *]`);
  const found = (await action(stack, `package_search?fq=${fq}&rows=100&start=0`))['result'] as Json;
  return (found['results'] as Json[]).map((pkg) => String(pkg['name']));
}

describe('dataset dates across a restart', () => {
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
  });

  it('answers the same dates from the first request after a restart on the same store', async () => {
    const { access, databaseUrl } = await openTestStore('sqlite');
    const first = await startStack({ sharedAccess: access });
    closers.push(
      () => access.close(),
      () => first.close(),
    );

    // Nothing looked yet: no dates, and no package is "changed since".
    expect((await dates(first)).get('v10_dupwith')).toEqual({ created: null, modified: null });
    await first.live.watcher.check();
    const seen = await dates(first);
    expect([...seen.values()].every((date) => typeof date.created === 'string')).toBe(true);
    expect(seen.get('v10_dupwith')?.modified).toBe(seen.get('v10_dupwith')?.created);

    // One dataset changes upstream after T; the watcher's next look records it.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const since = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 5));
    first.simulator.revise('V10_DUPWITH');
    const report = await first.live.watcher.check();
    expect(report.changes.map((change) => change.dataset)).toEqual(['V10_DUPWITH']);
    const changed = await dates(first);
    expect(changed.get('v10_dupwith')?.created).toBe(seen.get('v10_dupwith')?.created);
    expect(String(changed.get('v10_dupwith')?.modified) > since.replace(/Z$/, '')).toBe(true);
    expect(await changedSince(first, since)).toEqual(['v10_dupwith']);
    // The harvester's own form: microseconds and a Z, an hour earlier than the last job started.
    expect(await changedSince(first, '2000-01-01T00:00:00.000000Z')).toHaveLength(13);

    // A restart: a new server (and its watcher's empty memory) on the same SQLite file.
    await first.close();
    await access.close();
    const reopened: AccessService = await openAccessService({
      ...STORE_SETTINGS,
      databaseUrl,
      adminToken: TEST_ADMIN_TOKEN,
    });
    const second = await startStack({ sharedAccess: reopened });
    closers.push(
      () => reopened.close(),
      () => second.close(),
    );
    expect(await dates(second)).toEqual(changed);
    expect(await changedSince(second, since)).toEqual(['v10_dupwith']);

    const catalogue = (await (await second.app.fetch('http://localhost/catalog.jsonld')).json()) as Json;
    const dcat = (catalogue['dcat:dataset'] as Json[]).find((dataset) => dataset['dct:identifier'] === 'V10_DUPWITH');
    expect(dcat?.['dct:issued']).toEqual({
      '@value': `${String(changed.get('v10_dupwith')?.created).slice(0, 23)}Z`,
      '@type': 'xsd:dateTime',
    });
    expect((dcat?.['dct:modified'] as Json)['@value']).toBe(
      `${String(changed.get('v10_dupwith')?.modified).slice(0, 23)}Z`,
    );
    const page = await (await second.app.fetch('http://localhost/portal/datasets/V10_DUPWITH')).text();
    const jsonLd = JSON.parse(/<script type="application\/ld\+json">([^<]*)<\/script>/.exec(page)?.[1] ?? '{}') as Json;
    expect(jsonLd['datePublished']).toBe((dcat?.['dct:issued'] as Json)['@value']);
    expect(jsonLd['dateModified']).toBe((dcat?.['dct:modified'] as Json)['@value']);
  });

  it('dates a new deployment within seconds, not a watch interval: its store holds no dates yet', async () => {
    const { access } = await openTestStore('sqlite');
    // The watcher's passes are five minutes apart, as by default; the first comes early because the store is new.
    const fresh = await startStack({ sharedAccess: access, live: { watchIntervalS: 300 } });
    closers.push(
      () => access.close(),
      () => fresh.close(),
    );
    await vi.waitFor(
      async () => {
        const found = [...(await dates(fresh)).values()];
        expect(found).toHaveLength(13);
        expect(found.every((date) => typeof date.modified === 'string')).toBe(true);
      },
      { timeout: 15_000, interval: 250 },
    );
  });
});
