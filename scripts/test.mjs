// `npm test`: build the library (`npm run build`) and the playground the suites load, type-check,
// the browser suites (web-test-runner in Debian Chromium, with the coverage threshold), then the
// Node suites (servers, relay + MCP client end to end, the packed package in fresh consumer
// projects, test/consumers/, and this script's own counting, test/scripts/). Prints the total alone
// on the last line as `N passed, M failed`; how it counts (a cancelled, timed-out, skipped or todo
// test, a broken stage, a stage that ran no test or outlived its time limit, and a missing or stale
// coverage report each count as failed) is in scripts/test-totals.mjs.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runStages } from './test-totals.mjs';

/**
 * The e2e suites whose agents read the browser's own WebMCP (Playwright MCP's `webmcp_*` tools,
 * Chrome DevTools MCP's `list_webmcp_tools`): their browser (test/e2e/agent-browser.mjs) always has
 * it on, whatever AI_OPS_BROWSER_MODE says, so a second run would repeat the first.
 */
export const AGENT_SUITES = ['attack-agents.test.mjs', 'attack-person.test.mjs', 'attack-storage.test.mjs', 'batch-playwright-mcp.test.mjs', 'devtools-mcp.test.mjs', 'playwright-mcp.test.mjs'];

const MINUTE = 60_000;

/**
 * The Node stages' reporters: TAP on stdout, which the total counts, and the progress lines of
 * scripts/test-progress.mjs in `progress`, from which a hung test is named.
 * @param {string} progress
 */
const nodeReporters = (progress) => ['--test-reporter=tap', '--test-reporter-destination=stdout', '--test-reporter=./scripts/test-progress.mjs', `--test-reporter-destination=${progress}`];

/**
 * The stages of `npm test`, in order. Each has a time limit (`timeLimitMs`, times
 * AI_OPS_TEST_TIME_SCALE on a slow machine), generous on purpose: the whole run takes ≈ 34 min on
 * a 2-core machine shared by several runs, and no stage's limit is under 10 min. A hung test then
 * ends its stage, which counts as failed, and the run goes on to the total.
 */
export const stages = [
  { name: 'build', cmd: ['npm', 'run', 'build'], timeLimitMs: 10 * MINUTE },
  // The demo pages (PGlite, Yaegi, …) are not part of the library; the browser and e2e suites load them.
  { name: 'playground', cmd: ['node', 'esbuild.config.mjs'], timeLimitMs: 10 * MINUTE },
  { name: 'typecheck', cmd: ['npx', 'tsc', '-p', 'tsconfig.json'], timeLimitMs: 10 * MINUTE },
  // One group a stage: web-test-runner prints a progress line per group, and the count is read from
  // the stage's last one. Line coverage of src/ and elements/ must each be ≥ 90 %.
  {
    name: 'browser', cmd: ['npx', 'web-test-runner', '--coverage', '--group', 'default'], count: 'wtr',
    coverage: 'coverage/lcov.info', coverageFolders: ['src', 'elements'], timeLimitMs: 25 * MINUTE,
  },
  // The dialog as a person's browser shows it (navigator.webdriver false; AGENT-3).
  { name: 'browser, not automated', cmd: ['npx', 'web-test-runner', '--group', 'person'], count: 'wtr', timeLimitMs: 10 * MINUTE },
  // The runtime tests again in a browser with its own WebMCP (NAT-3; web-test-runner.config.mjs
  // refuses to start when that browser has no document.modelContext of its own).
  { name: 'browser, WebMCP on', cmd: ['npx', 'web-test-runner', '--group', 'default'], env: { WEBMCP: '1' }, count: 'wtr', timeLimitMs: 25 * MINUTE },
  {
    name: 'node',
    cmd: ['node', '--test', ...nodeReporters('build/test-progress/node.jsonl'), '--test-concurrency=1', 'test/scripts/', 'test/node/', 'test/e2e/', 'test/consumers/'],
    count: 'tap', progress: 'build/test-progress/node.jsonl', timeLimitMs: 45 * MINUTE,
  },
  // The end-to-end suites again in Chromium with its own WebMCP (NAT-3; test/e2e/harness.mjs fails
  // the launch when that browser has no document.modelContext of its own).
  // The agents' suites (AGENT_SUITES) always drive a Chromium with WebMCP on, so they run once, above.
  {
    name: 'e2e, WebMCP on',
    cmd: ['node', '--test', ...nodeReporters('build/test-progress/e2e-webmcp.jsonl'), '--test-concurrency=1',
      ...readdirSync(new URL('../test/e2e', import.meta.url)).filter((f) => f.endsWith('.test.mjs') && !AGENT_SUITES.includes(f)).sort().map((f) => `test/e2e/${f}`)],
    env: { AI_OPS_BROWSER_MODE: 'webmcp' },
    count: 'tap', progress: 'build/test-progress/e2e-webmcp.jsonl', timeLimitMs: 40 * MINUTE,
  },
];

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { broken, failed } = await runStages(stages);
  process.exit(broken.length || failed ? 1 : 0);
}
