const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * Delay before each retry, after the first attempt fails: the Standard Webhooks (Svix) schedule with
 * one more 10-hour step, so that even with every delay jittered short the retries span over a day
 * (nine attempts over about 37.6 hours, at least 30): a receiver down for a whole day still gets it.
 */
export const RETRY_DELAYS_MS = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR, 10 * HOUR] as const;

export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** Each delay varies by up to ±20% so retries from one outage do not arrive together. */
export const JITTER = 0.2;

/** The soonest any failed job is tried again: the first delay, jittered its shortest. */
export const EARLIEST_RETRY_MS = RETRY_DELAYS_MS[0] * (1 - JITTER);

/** When to try again after `attemptsMade` attempts, or undefined when the message has had its last. */
export function nextRetryAt(attemptsMade: number, now: Date, random: () => number = Math.random): Date | undefined {
  const base = RETRY_DELAYS_MS[attemptsMade - 1];
  if (base === undefined) return undefined;
  const factor = 1 + JITTER * (2 * random() - 1);
  return new Date(now.getTime() + Math.round(base * factor));
}
