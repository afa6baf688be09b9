/**
 * The real clock for the playground's engines (tests pass their own).
 *
 * Its code is not `ai-ops/internals`'s `systemClock`: with esbuild's code splitting, a page importing one name
 * from that entry gets every module the entry re-exports that any other chunk uses (the call path,
 * the validator, the relay connection: ~4 KB min+gzip loaded while every switch is off, REACT-1).
 * @module
 */
import type { Clock } from 'ai-ops/internals'; // a type only: no code of that entry loads

/** Now and timers from the browser. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as number),
};
