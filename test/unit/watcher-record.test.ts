import { whileCounting } from '../helpers/loop-iterations.js';
import { describe, expect, it } from 'vitest';
import type { DatasetCode } from '../../src/catalogue.js';
import type { DatasetVersion } from '../../src/live/dataset-versions.js';
import { createWatcher } from '../../src/live/watcher.js';
import type { UpstreamBody } from '../../src/upstream/client.js';
import { createLogger } from '../../src/logger.js';

describe("the watcher's first look at a body something else downloaded", () => {
  it('is taken on a later loop iteration than the one that delivered the body', async () => {
    // Delivered where the upstream client parsed it: hashing and describing it there would add to that turn.
    let iterations = 0;
    let describedAt: number | undefined;
    const stored = new Map<DatasetCode, DatasetVersion>();
    const watcher = createWatcher({
      client: { getDataset: () => Promise.reject(new Error('no download expected')) },
      codes: [],
      versions: {
        get: (code) => Promise.resolve(stored.get(code)),
        set: (code, version) => Promise.resolve(void stored.set(code, version)),
      },
      describe: () => {
        describedAt ??= iterations;
        return Promise.resolve({ recordCount: 1, shapeFingerprint: 'f' });
      },
      onChange: () => Promise.resolve(),
      keep: () => Promise.resolve(),
      isLeader: () => true,
      logger: createLogger('silent'),
    });
    const code = 'ODS_COUNT_STUDENT_BY_MAJOR';
    await whileCounting(
      () => watcher.record(code, { kind: 'body', status: 200, value: [{ a: 1 }], text: '[{"a":1}]', headers: {} }),
      () => iterations++,
    );
    await watcher.close();
    expect(stored.get(code)).toMatchObject({ recordCount: 1, shapeFingerprint: 'f' });
    expect(describedAt).toBeGreaterThanOrEqual(1);
  });
});

const BODY: UpstreamBody = { kind: 'body', status: 200, value: [{ a: 1 }], text: '[{"a":1}]', headers: {} };

describe("the watcher's pass", () => {
  it('hashes and describes a downloaded body on a later loop iteration than the one that delivered it', async () => {
    // The client delivers a body in the turn that parsed it: the hash and the description would add to that turn.
    let iterations = 0;
    let deliveredAt: number | undefined;
    let describedAt: number | undefined;
    const stored = new Map<DatasetCode, DatasetVersion>();
    const code = 'ODS_COUNT_STUDENT_BY_MAJOR';
    const watcher = createWatcher({
      client: {
        getDataset: () =>
          Promise.resolve(BODY).then((body) => {
            deliveredAt = iterations;
            return body;
          }),
      },
      codes: [code],
      versions: {
        get: (at) => Promise.resolve(stored.get(at)),
        set: (at, version) => Promise.resolve(void stored.set(at, version)),
      },
      describe: () => {
        describedAt ??= iterations;
        return Promise.resolve({ recordCount: 1, shapeFingerprint: 'f' });
      },
      onChange: () => Promise.resolve(),
      keep: () => Promise.resolve(),
      isLeader: () => true,
      logger: createLogger('silent'),
    });
    const report = await whileCounting(
      () => watcher.check(),
      () => iterations++,
    );
    await watcher.close();
    expect(report.failed).toEqual([]);
    expect(stored.get(code)).toMatchObject({ recordCount: 1 });
    expect(deliveredAt).toBeDefined();
    expect(describedAt).toBeGreaterThan(deliveredAt ?? Number.POSITIVE_INFINITY);
  });
});
