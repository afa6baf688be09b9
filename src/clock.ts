/**
 * Time, injectable so a test can drive a 7-day expiry or a 50 s deadline without waiting.
 * @module
 */

/** A timer handle as the clock returns it. */
export type TimerHandle = unknown;

/** Now and timers. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

// setTimeout fires at once for delays over 2^31-1 ms; longer waits are chained.
const MAX_DELAY = 2 ** 31 - 1;

/** The real clock. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, Math.min(Math.max(0, ms), MAX_DELAY)),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as number),
};

/**
 * Calls `callback` once `clock.now()` reaches `at`, even when the timer fires early or late
 * (background tabs throttle timers; delays over 24.8 days are chained). Returns a cancel function.
 */
export function at(clock: Clock, at: number, callback: () => void): () => void {
  let handle: TimerHandle;
  let cancelled = false;
  const arm = () => {
    const delay = at - clock.now();
    if (delay <= 0) {
      callback();
      return;
    }
    handle = clock.setTimeout(() => {
      if (!cancelled) arm();
    }, Math.min(delay, MAX_DELAY));
  };
  arm();
  return () => {
    cancelled = true;
    clock.clearTimeout(handle);
  };
}
