// `npm test`: build the library (`npm run build`) and the playground the suites load, type-check,
// then lanes side by side: the browser suites (web-test-runner in Debian Chromium with the coverage
// threshold, then Firefox ESR and WebKitGTK), the Node suites (servers, the packed package in fresh
// consumer projects, test/consumers/, and this script's own counting, test/scripts/) and the end to
// end suites (relay + MCP client, the agents) dealt over lanes of their own. Prints the total alone
// on the last line as `N passed, M failed`; how it counts (a cancelled, timed-out, skipped or todo
// test, a broken stage, a stage that ran no test or outlived its time limit, and a missing or stale
// coverage report each count as failed) is in scripts/test-totals.mjs.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runStages } from './test-totals.mjs';
import { canIsolateNetwork, deal, inOwnNetwork, SUITE_START_SECONDS, suiteSeconds } from './test-shards.mjs';

/**
 * The e2e suites whose agents read the browser's own WebMCP (Playwright MCP's `webmcp_*` tools,
 * Chrome DevTools MCP's `list_webmcp_tools`): their browser (test/e2e/agent-browser.mjs) always has
 * it on, whatever AI_OPS_BROWSER_MODE says, so a second run would repeat the first.
 */
export const AGENT_SUITES = ['attack-agents.test.mjs', 'attack-person.test.mjs', 'attack-restore.test.mjs', 'attack-storage.test.mjs', 'batch-playwright-mcp.test.mjs', 'devtools-mcp.test.mjs', 'playwright-mcp.test.mjs'];

/**
 * The e2e suites whose minutes prove real-time relay behaviour, not the browser's WebMCP: a 55 s
 * operation and the confirmation's 40–50 s waits through the relay's and widget's raised timeouts
 * (`sample-relay`, `relay-confirm`: ≈ 2 and ≈ 4 min). Those timers are the widget's, the relay
 * process's and the confirmation queue's, the same in both browser modes; what the browser's own
 * WebMCP changes is how the widget reaches the page's tools (ai-ops's own testing surface instead of
 * the polyfill's), which the other relay suites prove in their second run (relay-switch, relay-tabs,
 * relay-safe, batch-relay, …). So these run once, in the plain run.
 */
export const RELAY_TIME_SUITES = ['relay-confirm.test.mjs', 'sample-relay.test.mjs'];

const MINUTE = 60_000;

/**
 * The Node stages' reporters: TAP on stdout, which the total counts, and the progress lines of
 * scripts/test-progress.mjs in `progress`, from which a hung test is named.
 * @param {string} progress
 */
const nodeReporters = (progress) => ['--test-reporter=tap', '--test-reporter-destination=stdout', '--test-reporter=./scripts/test-progress.mjs', `--test-reporter-destination=${progress}`];

/**
 * The stages of `npm test`. Each has a time limit (`timeLimitMs`, times AI_OPS_TEST_TIME_SCALE on a
 * slow machine), generous on purpose: no stage's limit is under 10 min. A hung test then ends its
 * stage, which counts as failed, and the run goes on to the total. Each test stage names the
 * `engine` its browser tests run in (the per-engine totals).
 *
 * After the builds, two lanes run side by side (scripts/test-totals.mjs, `lane`): the browser
 * suites, which compute (web-test-runner in Chromium, Firefox ESR and WebKitGTK, one browser at a
 * time), beside the Node suites, whose e2e tests mostly wait on relays, timers and real time. The
 * browsers lane starts no relay: every suite with one (a page's widget scans the relay ports
 * 9333–9348, so two at once could find each other's) runs in the Node lane, one after another.
 */
const e2eFolder = new URL('../test/e2e', import.meta.url);
const e2eSuites = readdirSync(e2eFolder).filter((f) => f.endsWith('.test.mjs')).sort();
const firefoxSuites = readdirSync(new URL('../test/e2e-firefox', import.meta.url)).filter((f) => f.endsWith('.test.mjs')).sort();

/**
 * How many e2e lanes run beside the Node lane (AI_OPS_E2E_LANES, default 3) when each can have a
 * network namespace of its own (scripts/test-shards.mjs); 0 when it cannot: then every e2e suite
 * runs in the Node lane, one after another.
 */
export const isolated = canIsolateNetwork();
export const e2eLanes = isolated ? Math.max(1, Number(process.env.AI_OPS_E2E_LANES) || 3) : 0;

/**
 * Every e2e run of a suite, weighed: each test/e2e suite in the plain run; again with the browser's
 * own WebMCP on (NAT-3; test/e2e/harness.mjs fails the launch when that browser has no
 * document.modelContext of its own), except AGENT_SUITES and RELAY_TIME_SUITES; and the sample
 * page through the real relay in Firefox (the polyfill's path there).
 */
export const e2eUnits = [
  ...e2eSuites.map((file) => ({ file: `test/e2e/${file}`, mode: 'plain', seconds: suiteSeconds(file, 'plain') + SUITE_START_SECONDS })),
  ...e2eSuites.filter((f) => !AGENT_SUITES.includes(f) && !RELAY_TIME_SUITES.includes(f))
    .map((file) => ({ file: `test/e2e/${file}`, mode: 'webmcp', seconds: suiteSeconds(file, 'webmcp') + SUITE_START_SECONDS })),
  ...firefoxSuites.map((file) => ({ file: `test/e2e-firefox/${file}`, mode: 'firefox', seconds: suiteSeconds(file, 'plain') + SUITE_START_SECONDS })),
];

/**
 * The Node lane's own suites, in the e2e weights' units (scripts/test-shards.mjs: about 2 s each in
 * a full run on 2 cores). They compute — the packed package's installs, builds and its four README
 * recipes in a browser, the sandbox, the runner's feed — and took 24.6 min in a full run (2026-12-08)
 * while the e2e lanes' ≈ 667 units took 22–25 min: so ≈ 650 units, and the lane gets only the
 * e2e suites that keep it level with the others (at 300 it got 19 suites, 8 min more, and ended
 * last by 8 min, one core idle meanwhile).
 */
const NODE_LANE_SECONDS = 650;

/**
 * The stages of one lane's e2e units: one `node --test` a mode, in the lane's network namespace
 * when it has one.
 * @param {string} lane
 * @param {typeof e2eUnits} units
 * @param {boolean} ownNetwork
 */
function e2eStages(lane, units, ownNetwork) {
  const modes = [
    { mode: 'plain', name: 'e2e', engine: 'Chromium' },
    { mode: 'webmcp', name: 'e2e, WebMCP on', engine: 'Chromium', env: { AI_OPS_BROWSER_MODE: 'webmcp' } },
    { mode: 'firefox', name: 'e2e, Firefox', engine: 'Firefox ESR' },
  ];
  return modes.flatMap(({ mode, name, engine, env }) => {
    const files = units.filter((u) => u.mode === mode).map((u) => u.file);
    if (!files.length) return [];
    const slug = `${name} ${lane}`.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
    const progress = `build/test-progress/${slug}.jsonl`;
    const cmd = ['node', '--test', ...nodeReporters(progress), '--test-concurrency=1', ...files];
    return [{ name: `${name} (${lane})`, cmd: ownNetwork ? inOwnNetwork(cmd) : cmd, env, count: 'tap', progress, engine, lane, timeLimitMs: 25 * MINUTE }];
  });
}

const [nodeLaneUnits, ...laneUnits] = deal(e2eUnits, e2eLanes + 1, [NODE_LANE_SECONDS]);

/**
 * The stages of `npm test`. Each has a time limit (`timeLimitMs`, times AI_OPS_TEST_TIME_SCALE on a
 * slow machine), generous on purpose: no stage's limit is under 10 min. A hung test then ends its
 * stage, which counts as failed, and the run goes on to the total. Each test stage names the
 * `engine` its browser tests run in (the per-engine totals).
 *
 * After the builds, lanes run side by side (scripts/test-totals.mjs, `lane`): the browser suites,
 * which compute (web-test-runner in Chromium, Firefox ESR and WebKitGTK, one browser at a time);
 * the Node lane (servers, the packed package in fresh consumer projects, this script's own
 * counting), which keeps the machine's network for npm; and the e2e lanes, whose suites mostly
 * wait on relays, timers and real time, each in its own network namespace. The browsers lane
 * starts no relay, and the Node lane's e2e share runs after its own suites, one at a time.
 */
export const stages = [
  { name: 'build', cmd: ['npm', 'run', 'build'], timeLimitMs: 10 * MINUTE },
  // The demo pages (PGlite, Yaegi, …) are not part of the library; the browser and e2e suites load them.
  { name: 'playground', cmd: ['node', 'esbuild.config.mjs'], timeLimitMs: 10 * MINUTE },
  { name: 'typecheck', cmd: ['npx', 'tsc', '-p', 'tsconfig.json'], timeLimitMs: 10 * MINUTE },
  // One group a stage: web-test-runner prints a progress line per group, and the count is read from
  // the stage's last one. Line coverage of src/ and elements/ must each be ≥ 90 %.
  {
    name: 'browser', cmd: ['npx', 'web-test-runner', '--coverage', '--group', 'default'], count: 'wtr', engine: 'Chromium', lane: 'browsers',
    coverage: 'coverage/lcov.info', coverageFolders: ['src', 'elements'], timeLimitMs: 25 * MINUTE,
  },
  // The dialog as a person's browser shows it (navigator.webdriver false; AGENT-3).
  { name: 'browser, not automated', cmd: ['npx', 'web-test-runner', '--group', 'person'], count: 'wtr', engine: 'Chromium', lane: 'browsers', timeLimitMs: 10 * MINUTE },
  // The runtime tests again in a browser with its own WebMCP (NAT-3; web-test-runner.config.mjs
  // refuses to start when that browser has no document.modelContext of its own).
  { name: 'browser, WebMCP on', cmd: ['npx', 'web-test-runner', '--group', 'default'], env: { WEBMCP: '1' }, count: 'wtr', engine: 'Chromium', lane: 'browsers', timeLimitMs: 25 * MINUTE },
  // The element suites in the two other engines (web-test-runner.engines.config.mjs); the script
  // starts Xvfb and WebKitWebDriver for WebKitGTK and stops them. A browser that does not start
  // fails its stage.
  { name: 'browser, Firefox', cmd: ['node', 'scripts/wtr-engine.mjs', 'firefox'], count: 'wtr', engine: 'Firefox ESR', lane: 'browsers', timeLimitMs: 15 * MINUTE },
  { name: 'browser, WebKit', cmd: ['node', 'scripts/wtr-engine.mjs', 'webkit'], count: 'wtr', engine: 'WebKitGTK', lane: 'browsers', timeLimitMs: 10 * MINUTE },
  // Its suites compute (the packed package's installs and builds, the sandbox, the runner's feed):
  // 16 min beside the other lanes on a 2-core machine, so a busy machine (SUITE-1: a CPU hog beside
  // it) needs more than the 20 min this limit was (a contended run was killed there while its
  // tests were passing).
  {
    name: 'node',
    cmd: ['node', '--test', ...nodeReporters('build/test-progress/node.jsonl'), '--test-concurrency=1', 'test/consumers/', 'test/scripts/', 'test/node/'],
    count: 'tap', progress: 'build/test-progress/node.jsonl', engine: 'Chromium', lane: 'node', timeLimitMs: 30 * MINUTE,
  },
  ...e2eStages('node', nodeLaneUnits, false),
  ...laneUnits.flatMap((units, i) => e2eStages(String(i + 1), units, true)),
];

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { broken, failed } = await runStages(stages);
  process.exit(broken.length || failed ? 1 : 0);
}
