// `npm test`: build the library (`npm run build`) and the playground the suites load, type-check,
// the browser suites (web-test-runner in Debian Chromium, with the coverage threshold), then the
// Node suites (servers, relay + MCP client end to end, and the packed package in fresh consumer
// projects, test/consumers/). Prints the total alone on the last line as `N passed, M failed`.
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { relative, sep } from 'node:path';

const stages = [
  { name: 'build', cmd: ['npm', 'run', 'build'] },
  // The demo pages (PGlite, Yaegi, …) are not part of the library; the browser and e2e suites load them.
  { name: 'playground', cmd: ['node', 'esbuild.config.mjs'] },
  { name: 'typecheck', cmd: ['npx', 'tsc', '-p', 'tsconfig.json'] },
  // One group a stage: web-test-runner prints a progress line per group, and the count is read from
  // the stage's last one.
  { name: 'browser', cmd: ['npx', 'web-test-runner', '--coverage', '--group', 'default'], count: 'wtr' },
  // The dialog as a person's browser shows it (navigator.webdriver false; AGENT-3).
  { name: 'browser, not automated', cmd: ['npx', 'web-test-runner', '--group', 'person'], count: 'wtr' },
  // The runtime tests again in a browser with its own WebMCP (NAT-3; web-test-runner.config.mjs).
  { name: 'browser, WebMCP on', cmd: ['npx', 'web-test-runner', '--group', 'default'], env: { WEBMCP: '1' }, count: 'wtr' },
  { name: 'node', cmd: ['node', '--test', '--test-reporter=tap', '--test-concurrency=1', 'test/node/', 'test/e2e/', 'test/consumers/'], count: 'tap' },
  // The end-to-end suites again in Chromium with its own WebMCP (NAT-3; test/e2e/harness.mjs).
  // playwright-mcp.test.mjs always drives a Chromium with WebMCP on, so it runs once, above.
  {
    name: 'e2e, WebMCP on',
    cmd: ['node', '--test', '--test-reporter=tap', '--test-concurrency=1',
      ...readdirSync('test/e2e').filter((f) => f.endsWith('.test.mjs') && f !== 'playwright-mcp.test.mjs').map((f) => `test/e2e/${f}`)],
    env: { AI_OPS_BROWSER_MODE: 'webmcp' },
    count: 'tap',
  },
];

const strip = (text) => text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
let passed = 0;
let failed = 0;
const broken = [];

for (const stage of stages) {
  process.stdout.write(`\n== ${stage.name}: ${stage.cmd.join(' ')}\n`);
  const { code, output } = await run(stage.cmd, stage.env);
  if (stage.count === 'wtr') {
    const matches = [...strip(output).matchAll(/(\d+) passed, (\d+) failed/g)];
    const last = matches.at(-1);
    if (last) {
      passed += Number(last[1]);
      failed += Number(last[2]);
    }
  } else if (stage.count === 'tap') {
    passed += Number(/^# pass (\d+)/m.exec(output)?.[1] ?? 0);
    failed += Number(/^# fail (\d+)/m.exec(output)?.[1] ?? 0);
  }
  if (code !== 0) broken.push(`${stage.name} (exit ${code})`);
  if (code !== 0 && !stage.count) break; // nothing to test without a build
}

// Line coverage per folder from the browser run (the budget: src/ and elements/ each ≥ 90 %).
try {
  const lcov = readFileSync('coverage/lcov.info', 'utf8');
  const byFolder = {};
  let folder = '';
  for (const line of lcov.split('\n')) {
    if (line.startsWith('SF:')) folder = relative(process.cwd(), line.slice(3)).split(sep)[0];
    const [key, value] = line.split(':');
    if (key === 'LF' || key === 'LH') (byFolder[folder] ??= { LF: 0, LH: 0 })[key] += Number(value);
  }
  for (const [name, { LF, LH }] of Object.entries(byFolder)) {
    const percent = (100 * LH) / LF;
    process.stdout.write(`line coverage ${name}/: ${percent.toFixed(1)} % (${LH}/${LF})\n`);
    if (percent < 90) broken.push(`coverage of ${name}/ under 90 %`);
  }
} catch {
  broken.push('no coverage report');
}

if (broken.length) process.stdout.write(`\nfailed stages: ${broken.join(', ')}\n`);
process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
process.exit(broken.length || failed ? 1 : 0);

function run([cmd, ...args], env = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let output = '';
    for (const stream of [child.stdout, child.stderr]) {
      stream.on('data', (chunk) => {
        output += chunk;
        (stream === child.stdout ? process.stdout : process.stderr).write(chunk);
      });
    }
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}
