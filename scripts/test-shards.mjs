// How `npm test` spreads the end-to-end suites over lanes that run side by side (scripts/test.mjs).
//
// Most of an e2e suite's minutes are waits (a relay's 40–55 s real-time proofs, the verifier's real
// 50 s, agents starting), so several suites at once finish in a fraction of the time one after
// another takes. Two suites with relays must not see each other, though: a page's relay widget
// scans the ports 9333–9348 and joins the first relay it finds. Each e2e lane therefore runs in a
// network namespace of its own (`unshare --net`, loopback up), as if on its own machine; where the
// namespace cannot be made (not root), every e2e suite runs in one lane, one after another.
import { spawnSync } from 'node:child_process';

/**
 * Seconds each e2e suite took in a full `npm test` on 2 cores (2026-12-06, `[plain, WebMCP on]`),
 * the weights the lanes are balanced by. A suite not listed counts as DEFAULT_SECONDS; a stale
 * weight only makes the lanes less even, never drops a suite.
 */
export const SUITE_SECONDS = {
  'app-console.test.mjs': [16, 12], 'app-home.test.mjs': [4, 4], 'app-lazy.test.mjs': [20, 18],
  'app-navigation.test.mjs': [8, 5], 'app-react-bytes.test.mjs': [20, 13], 'app-ssr.test.mjs': [5, 3],
  'app-strict.test.mjs': [21, 17], 'attack-agents.test.mjs': [155], 'attack-person.test.mjs': [129],
  'attack-storage.test.mjs': [28], 'audit-export.test.mjs': [9, 9], 'authenticator.test.mjs': [9, 8],
  'batch-playwright-mcp.test.mjs': [21], 'batch-relay.test.mjs': [5, 5], 'devtools-mcp.test.mjs': [6],
  'drawio-canvas.test.mjs': [10, 10], 'drawio-compressed.test.mjs': [4, 4], 'drawio-page.test.mjs': [11, 9],
  'excalidraw-ids.test.mjs': [4, 3], 'excalidraw-page.test.mjs': [11, 9], 'go-page.test.mjs': [27, 26],
  'node-page.test.mjs': [13, 14], 'playwright-mcp.test.mjs': [36], 'receipt-verify.test.mjs': [85, 85],
  'relay-confirm.test.mjs': [98], 'relay-door.test.mjs': [9, 11], 'relay-late-focus.test.mjs': [9, 9],
  'relay-late-reconnect.test.mjs': [11, 11], 'relay-off-withdraws.test.mjs': [20, 20], 'relay-safe.test.mjs': [23, 23], 'relay-six-pages.test.mjs': [25, 25],
  'relay-switch.test.mjs': [6, 6], 'relay-tabs.test.mjs': [5, 5], 'sample-relay.test.mjs': [59],
  'slides-page.test.mjs': [13, 14], 'sql-page.test.mjs': [19, 20], 'switch-off-page.test.mjs': [2, 2],
  'undo-core.test.mjs': [9, 9], 'undo-docs.test.mjs': [16, 16], 'undo-files.test.mjs': [13, 13],
  'undo-sql.test.mjs': [11, 11], 'sample-relay-firefox.test.mjs': [22],
  'attack-restore.test.mjs': [55],
  'switch-notice.test.mjs': [41, 41], 'console-watch.test.mjs': [104, 104],
  'relay-pairing.test.mjs': [150, 150],
};
export const DEFAULT_SECONDS = 10;
/** What starting a suite costs besides its tests (a browser, a server, a relay). */
export const SUITE_START_SECONDS = 3;

/**
 * Deals `units` (each with `seconds`) onto `count` lanes, longest first, each to the lane that would
 * end soonest (longest processing time first); `loads` are seconds a lane already holds. Every unit
 * lands in exactly one lane; a lane keeps its units in the order they were dealt.
 * @template {{seconds: number}} T
 * @param {T[]} units
 * @param {number} count
 * @param {number[]} [loads]
 * @returns {T[][]}
 * @example deal([{ seconds: 5 }, { seconds: 3 }, { seconds: 3 }], 2) // [[{5}], [{3}, {3}]]
 */
export function deal(units, count, loads = []) {
  const lanes = Array.from({ length: count }, (_, i) => ({ load: loads[i] ?? 0, units: /** @type {T[]} */ ([]) }));
  for (const unit of [...units].sort((a, b) => b.seconds - a.seconds)) {
    const lane = lanes.reduce((best, each) => (each.load < best.load ? each : best));
    lane.units.push(unit);
    lane.load += unit.seconds;
  }
  return lanes.map((lane) => lane.units);
}

/** The weight of `file` in `mode` ('plain' is the first measure, 'webmcp' the second). */
export function suiteSeconds(file, mode) {
  const measured = SUITE_SECONDS[file.split('/').pop()] ?? [];
  return (mode === 'webmcp' ? measured[1] ?? measured[0] : measured[0]) ?? DEFAULT_SECONDS;
}

/**
 * Whether this machine lets `npm test` give a lane its own network namespace: `unshare --net`
 * (util-linux, as root) and `ip` (iproute2) to bring its loopback up.
 */
export function canIsolateNetwork() {
  const probe = spawnSync('unshare', ['--net', '--', 'sh', '-c', 'ip link set lo up'], { stdio: 'ignore', timeout: 10_000 });
  return probe.status === 0;
}

/**
 * `cmd` run in a network namespace of its own with its loopback up: its servers and relays are
 * seen by nothing outside it, and it sees none of theirs.
 * @param {string[]} cmd
 */
export function inOwnNetwork(cmd) {
  return ['unshare', '--net', '--', 'sh', '-c', 'ip link set lo up && exec "$@"', 'sh', ...cmd];
}
