// Retry schedule: 6 attempts in all; the delay after attempt n is RETRY_DELAYS_MS[n - 1].
export const RETRY_DELAYS_MS = [10_000, 60_000, 5 * 60_000, 30 * 60_000, 2 * 60 * 60_000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
export const ATTEMPT_TIMEOUT_MS = 10_000;

/** When to try again after `attemptCount` failed attempts, or null when the delivery has used them all. */
export function nextAttemptAfter(attemptCount: number, now: Date): Date | null {
  if (attemptCount >= MAX_ATTEMPTS) return null;
  return new Date(now.getTime() + RETRY_DELAYS_MS[Math.max(0, attemptCount - 1)]);
}
