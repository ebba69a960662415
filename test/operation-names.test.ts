import { describe, expect, it } from 'vitest';
import { DEFAULTS } from './helpers/settings.js';
import { OperationNames, operationNamesIn } from '../src/server/operation-names.js';
import { readPersistedManifest } from '../src/server/plugins/use-persisted-operations.js';
import { useStack } from './helpers/stack.js';

describe('OperationNames: the operation names metrics and spans may show', () => {
  it('shows the first `limit` plain names, then `other` for good; a name once shown stays shown', () => {
    const names = new OperationNames({ limit: 2 });
    expect(names.label('First')).toBe('First');
    expect(names.label('Second')).toBe('Second');
    expect(names.label('Third')).toBe('other');
    expect(names.label('First')).toBe('First');
    expect(names.label('Third')).toBe('other');
    expect(names.label(undefined)).toBe('Anonymous');
    expect(names.label('')).toBe('Anonymous');
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
