import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../helpers/settings.js';
import { createMetrics } from '../../src/server/observability/metrics.js';
import { NAME_SLOT_IDLE_MS, OperationNames, operationNamesIn } from '../../src/server/observability/operation-names.js';
import { readPersistedManifest } from '../../src/server/operations/use-persisted-operations.js';
import { useStack } from '../helpers/stack.js';

describe('OperationNames: the operation names metrics and spans may show', () => {
  it('shows `limit` plain names, then `other`; a name keeps its place while it is used', () => {
    const names = new OperationNames({ limit: 2 });
    expect(names.label('First')).toBe('First');
    expect(names.label('Second')).toBe('Second');
    expect(names.label('Third')).toBe('other');
    expect(names.label('First')).toBe('First');
    expect(names.label('Third')).toBe('other');
    expect(names.label(undefined)).toBe('Anonymous');
    expect(names.label('')).toBe('Anonymous');
  });

  it('gives the place of a name idle for an hour to the next new name, and drops its series from /metrics', async () => {
    let now = 0;
    const names = new OperationNames({ limit: 2, now: () => now });
    const metrics = createMetrics(names);
    const count = (name: string): void =>
      metrics.operations.requests.inc({ operationType: 'query', operationName: names.label(name) });
    // A burst of made-up names squats both places…
    for (const name of ['Squat1', 'Squat2', 'Squat3', 'Legit']) count(name);
    expect(names.label('Legit')).toBe('other');
    // …and a place still in use is not taken, however long the other has been idle.
    now += NAME_SLOT_IDLE_MS - 1;
    count('Squat2');
    expect(names.label('Legit')).toBe('other');
    // An hour after it was last seen, the least recently seen name gives its place, and its series go.
    now += 1;
    count('Legit');
    expect(names.label('Legit')).toBe('Legit');
    expect(names.label('Squat2')).toBe('Squat2');
    expect(names.label('Squat1')).toBe('other');
    // The series are dropped in the background (each metric is read first).
    let text = await metrics.registry.metrics();
    for (let tries = 0; text.includes('operationName="Squat1"') && tries < 50; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      text = await metrics.registry.metrics();
    }
    expect(text).not.toContain('operationName="Squat1"');
    expect(text).toContain('operationName="Squat2"');
    expect(text).toMatch(/^graphql_envelop_request\{operationType="query",operationName="Legit"\} 1$/m);
  });

  it('never shows a name that is not a GraphQL name of at most 64 characters, nor lets it take a place', () => {
    const names = new OperationNames({ limit: 1 });
    for (const name of ['a-b', '1st', 'has space', 'x'.repeat(65), 'ชื่อ', 'a"}\n'])
      expect(names.label(name), name).toBe('other');
    expect(names.label('x'.repeat(64))).toBe('x'.repeat(64));
  });

  it('always shows known names (the manifest), beside the first `limit` others', () => {
    const manifest = ['query A { datasets { no } }', 'query B { x } query C { y }', 'not GraphQL {'];
    const names = new OperationNames({ known: operationNamesIn(manifest), limit: 1 });
    expect(names.label('Seen')).toBe('Seen');
    expect(names.label('Late')).toBe('other');
    expect(['A', 'B', 'C'].map((name) => names.label(name))).toEqual(['A', 'B', 'C']);
  });

  describe('in a server running trusted documents', () => {
    const manifest = readPersistedManifest(DEFAULTS.persistedOperations.manifestPath);
    const stack = useStack({ trustedDocuments: manifest });

    it('shows the manifest operations even once the other names have run out', () => {
      const names = stack().metrics.operationNames;
      for (let i = 0; i < 200; i++) names.label(`Filler${i}`);
      expect(names.label('Filler999')).toBe('other');
      for (const name of operationNamesIn(manifest.values())) expect(names.label(name)).toBe(name);
      expect(operationNamesIn(manifest.values())).toContain('AppCatalogue');
    });
  });
});
