// The check that makes a "WebMCP on" run (wtr WEBMCP=1, e2e AI_OPS_BROWSER_MODE=webmcp) fail at
// once when the browser lacks its own document.modelContext, and a plain run fail when it has one.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { assertBrowserMode } from '../webmcp-check.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const executablePath = process.env.CHROME_PATH || '/usr/bin/chromium';

async function withBrowser(args, fn) {
  const browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu', ...args] });
  try {
    return await fn(await browser.newContext());
  } finally {
    await browser.close();
  }
}

test('[NAT-3] a "WebMCP on" run refuses a Chromium started without --enable-features=WebMCP', async () => {
  await withBrowser([], async (context) => {
    await assert.rejects(assertBrowserMode(context, 'webmcp', 'no flags'), /needs Chromium's own document\.modelContext.*no document\.modelContext/);
    await assertBrowserMode(context, 'plain', 'no flags');
  });
});

test('[NAT-3] a plain run refuses a Chromium that has its own WebMCP, and a "WebMCP on" run accepts it', async () => {
  await withBrowser(['--enable-features=WebMCP'], async (context) => {
    await assert.rejects(assertBrowserMode(context, 'plain', '--enable-features=WebMCP'), /without WebMCP of its own.*\[object ModelContext\]/);
    await assertBrowserMode(context, 'webmcp', '--enable-features=WebMCP');
  });
});

/**
 * A Chromium whose `--enable-features=WebMCP` does nothing (a wrapper that drops the flag), as if
 * the flag had stopped working: CHROME_PATH for the runs below.
 */
async function chromiumIgnoringTheFlag(t) {
  const dir = await mkdtemp(join(tmpdir(), 'ai-ops-no-webmcp-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const wrapper = join(dir, 'chromium');
  await writeFile(wrapper, `#!/bin/bash\nargs=()\nfor a in "$@"; do [ "$a" = "--enable-features=WebMCP" ] || args+=("$a"); done\nexec ${executablePath} "\${args[@]}"\n`);
  await chmod(wrapper, 0o755);
  return wrapper;
}

/** Runs `cmd` in the repository with `env` added; answers its exit code and output. */
function runIn(cmd, env) {
  return new Promise((resolve) => {
    // Not as a child of this test run (node:test would report to its parent instead).
    const { NODE_TEST_CONTEXT, ...own } = process.env;
    const child = spawn(cmd[0], cmd.slice(1), { cwd: root, env: { ...own, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    child.on('close', (code) => resolve({ code, output }));
  });
}

test('[NAT-3] web-test-runner with WEBMCP=1 stops before any test when the browser has no WebMCP of its own', { timeout: 120_000 }, async (t) => {
  const CHROME_PATH = await chromiumIgnoringTheFlag(t);
  const { code, output } = await runIn(['npx', 'web-test-runner', 'test/runtime/envelope.test.ts', '--group', 'default'], { WEBMCP: '1', CHROME_PATH });
  assert.notEqual(code, 0);
  assert.match(output, /needs Chromium's own document\.modelContext/);
  assert.doesNotMatch(output, /\d+ passed, \d+ failed/, 'no test ran');
});

test('[NAT-3] an e2e suite with AI_OPS_BROWSER_MODE=webmcp fails its tests when the browser has no WebMCP of its own', { timeout: 120_000 }, async (t) => {
  const CHROME_PATH = await chromiumIgnoringTheFlag(t);
  const { code, output } = await runIn(['node', '--test', '--test-reporter=tap', 'test/e2e/switch-off-page.test.mjs'], { AI_OPS_BROWSER_MODE: 'webmcp', CHROME_PATH });
  assert.notEqual(code, 0);
  assert.match(output, /needs Chromium's own document\.modelContext/);
  assert.match(output, /^# pass 0$/m);
});
