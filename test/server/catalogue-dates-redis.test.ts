import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatasetDatesRecord } from '../../src/access/model.js';
import { DATASETS } from '../../src/catalogue.js';
import { datasetDatesReader } from '../../src/live/dataset-dates.js';
import { createRedisVersions } from '../../src/live/dataset-versions.js';

const REDIS_URL = process.env['REDIS_URL'];

/*
 * Issue 42: with Redis, a catalogue request read the shared Redis once per dataset the store had no dates for (an
 * HGET of the watcher's record each: 13 on a store the watcher had not written yet, 3 on one whose datasets were
 * not all looked at). The catalogue's dates now come from one read: the store's query, then one HMGET of the
 * watcher's records for every dataset it lacks. Counted on a real Redis by MONITOR.
 */
describe.runIf(REDIS_URL !== undefined)("the catalogue's dates with Redis", () => {
  const keyPrefix = `test-dates-${randomBytes(4).toString('hex')}:`;
  const versionsKey = `${keyPrefix}dataset-versions`;
  let redis: Redis;
  let monitor: Redis;
  /** Each command on this suite's keys as MONITOR shows it: its name in lower case, then its arguments. */
  const commands: string[][] = [];

  beforeAll(async () => {
    redis = new Redis(REDIS_URL ?? '');
    monitor = await new Redis(REDIS_URL ?? '').monitor();
    monitor.on('monitor', (_time: string, args: string[]) => {
      if (args.slice(1).some((arg) => arg.startsWith(keyPrefix)))
        commands.push([String(args[0]).toLowerCase(), ...args.slice(1)]);
    });
  });
  afterAll(async () => {
    await redis.del(versionsKey);
    monitor.disconnect();
    redis.disconnect();
  });

  /** Resolves once MONITOR has shown every command sent before: a marker command of our own comes after them. */
  const settled = async (): Promise<void> => {
    const marker = `${keyPrefix}marker-${randomBytes(4).toString('hex')}`;
    await redis.get(marker);
    await expect.poll(() => commands.some((command) => command[1] === marker), { timeout: 10_000 }).toBe(true);
  };

  it("reads the watcher's records of every dataset the store has no dates for in one command", async () => {
    const codes = DATASETS.map((entry) => entry.code);
    const [inStore, recorded] = codes;
    if (inStore === undefined || recorded === undefined) throw new Error('the catalogue has no datasets');
    const storedAt = new Date(Date.UTC(2024, 0, 2));
    const changedAt = Date.UTC(2025, 4, 17, 3, 0, 0);
    const row: DatasetDatesRecord = { code: inStore, version: 'v0', created: storedAt, modified: storedAt };
    let storeReads = 0;
    const access = {
      datasetDates: () => {
        storeReads += 1;
        return Promise.resolve([row]);
      },
    };
    const versions = createRedisVersions(redis, keyPrefix);
    await versions.set(recorded, { version: 'v1', recordCount: 1, shapeFingerprint: 'f', changedAt });
    await settled();
    commands.length = 0;

    // As a catalogue asks: every dataset's dates at once (harvest/dataset-facts.ts harvestFacts).
    const dates = datasetDatesReader(access, versions);
    const answers = await Promise.all(codes.map((code) => dates(code)));
    await settled();

    expect(storeReads).toBe(1);
    const reads = commands.filter(([, key]) => key === versionsKey);
    expect(reads.map(([name]) => name)).toEqual(['hmget']);
    expect(reads[0]?.slice(2).sort()).toEqual(codes.filter((code) => code !== inStore).sort());
    // The store's row where there is one, the watcher's record where not, nothing for the others.
    expect(answers[0]).toEqual({ created: storedAt, modified: storedAt });
    expect(answers[1]).toEqual({ created: undefined, modified: new Date(changedAt) });
    expect(answers.slice(2).every((answer) => answer.modified === undefined)).toBe(true);
  });
});
