import { describe, expect, it } from 'vitest';
import { JITTER, MAX_ATTEMPTS, nextRetryAt, RETRY_DELAYS_MS } from '../src/outbox/retry-schedule.js';

describe('failed deliveries are retried with exponential backoff and jitter for at least a day', () => {
  const now = new Date('2026-01-01T00:00:00.000Z');

  it('delays grow and add up to more than 24 hours', () => {
    for (let i = 1; i < RETRY_DELAYS_MS.length; i++) expect(RETRY_DELAYS_MS[i]).toBeGreaterThanOrEqual(RETRY_DELAYS_MS[i - 1]!);
    const total = RETRY_DELAYS_MS.reduce((sum, d) => sum + d, 0) * (1 - JITTER);
    expect(total).toBeGreaterThan(24 * 60 * 60 * 1000);
  });

  it('jitter keeps each delay within ±20%', () => {
    for (const [attempts, base] of RETRY_DELAYS_MS.entries()) {
      const low = nextRetryAt(attempts + 1, now, () => 0)!.getTime() - now.getTime();
      const high = nextRetryAt(attempts + 1, now, () => 1)!.getTime() - now.getTime();
      expect(low).toBe(Math.round(base * 0.8));
      expect(high).toBe(Math.round(base * 1.2));
    }
  });

  it('after the last attempt there is no retry', () => {
    expect(nextRetryAt(MAX_ATTEMPTS, now)).toBeUndefined();
  });
});
