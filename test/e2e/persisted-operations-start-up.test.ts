import { describe, expect, it } from 'vitest';
import { runToExit } from '../helpers/server-process.js';

// The start-up half of test/contract/persisted-operations.test.ts: the production process, spawned.
describe('PERSISTED_OPERATIONS_ONLY at start-up', () => {
  it('refuses to start when the manifest cannot be read', async () => {
    const { code, output } = await runToExit({
      PERSISTED_OPERATIONS_ONLY: 'true',
      PERSISTED_OPERATIONS_FILE: '/nonexistent/persisted.json',
    });
    expect(code).toBe(1);
    expect(output).toContain('/nonexistent/persisted.json');
  });
});
