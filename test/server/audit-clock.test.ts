import { afterEach, describe, expect, it, vi } from 'vitest';
import { openTestStore, TEST_STORES } from '../helpers/stack.js';

/*
 * The audit trail keeps the store's clock, not the instance's: an instance whose clock is two hours ahead (or
 * behind) writes its transitions at the time the database gives, so the trail of a request decided by instances
 * with different clocks stays in order. The instance's clock is moved with fake timers (Date only); the database's
 * (SQLite's strftime('now'), PostgreSQL's clock_timestamp()) reads the system's.
 */
const SKEW_MS = 2 * 60 * 60 * 1000;

afterEach(() => {
  vi.useRealTimers();
});

describe.each(TEST_STORES)('the audit trail on %s', (kind) => {
  it('is written at the database time, whatever the instance clock says', async () => {
    const store = await openTestStore(kind);
    try {
      const { access } = store;
      const { client } = await access.registerClient({ name: 'Clock App', contactEmail: 'clock@example.org' });
      const realBefore = Date.now();

      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(realBefore + SKEW_MS);
      const asked = await access.requestEndpointUse({ client, endpointId: 85, purpose: 'clock skew' });
      vi.setSystemTime(realBefore - SKEW_MS);
      const approved = await access.reviewUseRequest({ id: asked.id, decision: 'APPROVE', note: 'ok', actor: 'op' });
      vi.useRealTimers();
      const realAfter = Date.now();

      const trail = await access.historyOf([asked.id]);
      expect(trail.map((event) => event.to)).toEqual(['PENDING', 'APPROVED']);
      for (const event of trail) {
        expect(event.at.getTime()).toBeGreaterThanOrEqual(realBefore - 1_000);
        expect(event.at.getTime()).toBeLessThanOrEqual(realAfter + 1_000);
      }
      expect(trail[1]!.at.getTime()).toBeGreaterThanOrEqual(trail[0]!.at.getTime());
      expect(approved.updatedAt.getTime()).toBe(trail[1]!.at.getTime());
      expect(asked.createdAt.getTime()).toBeLessThanOrEqual(realAfter + 1_000);
    } finally {
      vi.useRealTimers();
      await store.drop();
    }
  });
});
