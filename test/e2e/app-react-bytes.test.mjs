// REACT-1: a React page whose switches are all off loads no log or dialog code, and ai-ops's share
// of what it loads stays within PKG-4's 12 KB, measured from the requests a real Chromium makes on
// the playground's pages: each requested chunk of the app build is attributed to its sources
// through the build's metafile (a chunk's gzip bytes shared out by its sources' minified bytes).
//
// The rule, as on the plain page (test/e2e/switch-off-page.test.mjs counts runtime + elements +
// Lit, and the page's own operations module, playground/sample/operations.js, beside it):
// - ai-ops's share: every module of ai-ops (src/, elements/) and of Lit that the page's own code
//   (playground/, React's wrappers included) reaches through its imports without passing through
//   an operations module of ai-ops/tools. ai-ops/react is ai-ops's share.
// - the page's definitions: ai-ops/tools/* (the tool kit the page's operations are written with)
//   and the ai-ops modules that only it reaches on that page (src/limits.ts's size limits and
//   src/files.ts's file helpers, which no part of the switch path imports). Computed from the
//   metafile's import graph on every run, not from a list: a module the switch path starts
//   importing becomes ai-ops's share at once.
// A second test needs no such rule: a minimal React page (test/e2e/fixtures/react-minimal: the three
// wrappers and two operations written with the root entry alone), bundled by the app's buildApp,
// where everything of ai-ops and Lit it requests is ai-ops's share, its operations module beside.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cp, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../../esbuild.config.mjs';
import { clickSwitch, launchBrowser, startDemo, waitFor } from './harness.mjs';
import { TOOLS, attributedBytes, isAiOpsOrLit, outputsByUrlPath, readAppMetafile, recordRequests, routedTools } from './app-harness.mjs';

/** PKG-4's budget. */
const BUDGET = 12 * 1024;
const isToolKit = (input) => /^tools\//.test(input);

/**
 * The ai-ops and Lit modules among `inputs` (the sources of the chunks a page requested) that the
 * page's own code reaches without passing through ai-ops/tools (see the rule above).
 * @param {Set<string>} inputs
 * @param {{ inputs: Record<string, { imports: { path: string }[] }> }} metafile
 */
function reachedBySwitchPath(inputs, metafile) {
  const start = [...inputs].filter((input) => !isAiOpsOrLit(input) && !isToolKit(input));
  const seen = new Set(start);
  for (let i = 0; i < start.length; i++) {
    for (const { path } of metafile.inputs[start[i]]?.imports ?? []) {
      if (seen.has(path) || !inputs.has(path) || isToolKit(path)) continue;
      seen.add(path);
      start.push(path);
    }
  }
  return new Set([...seen].filter(isAiOpsOrLit));
}
const LOG_OR_DIALOG = /^elements\/(log|confirm)\/ai-ops-(log|confirm)\.ts$/;

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const fixture = join(root, 'test/e2e/fixtures/react-minimal');
/** Where the minimal page is built, under the served site (removed afterwards). */
const MINIMAL = 'react-minimal-fixture';

let demo, browser, minimal;

before(async () => {
  const outdir = join(root, 'dist/site', MINIMAL);
  await rm(outdir, { recursive: true, force: true });
  minimal = (await buildApp({ outdir, entry: join(fixture, 'main.tsx') })).metafile;
  await cp(join(fixture, 'index.html'), join(outdir, 'index.html'));
  demo = await startDemo();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await demo?.close();
  await rm(join(root, 'dist/site', MINIMAL), { recursive: true, force: true });
});

/** The app chunks among `paths` that hold the log's or the dialog's element. */
function logOrDialogChunks(paths, outputs) {
  return paths.filter((p) => Object.keys(outputs.get(p)?.inputs ?? {}).some((input) => LOG_OR_DIALOG.test(input)));
}

test('[REACT-1] every tool page of the app, loaded with its switch off, loads no log or dialog code (switching on loads them) and at most PKG-4\'s 12,288 B of ai-ops and Lit', async (t) => {
  const metafile = readAppMetafile();
  const outputs = outputsByUrlPath(metafile);
  const tools = routedTools();
  assert.deepEqual(tools, TOOLS, 'the app routes the six tool pages');
  for (const tool of tools) {
    const page = await browser.context.newPage();
    const requests = recordRequests(page, demo.origin);
    await page.goto(`${demo.origin}/${tool}/`, { waitUntil: 'networkidle' });
    const toggle = page.locator(`ai-ops-switch[tool="${tool}"] input[role="switch"]`);
    await toggle.waitFor();
    assert.equal(await toggle.isChecked(), false, `${tool}: the switch is off`);
    const paths = requests.paths();
    assert.deepEqual(logOrDialogChunks(paths, outputs), [], `${tool}: no log or dialog chunk while off`);
    assert.equal(await page.evaluate(() => customElements.get('ai-ops-log') === undefined && customElements.get('ai-ops-confirm') === undefined), true);
    const inputs = new Set(paths.flatMap((p) => Object.keys(outputs.get(p)?.inputs ?? {})));
    const share = reachedBySwitchPath(inputs, metafile);
    const isDefinitions = (input) => isAiOpsOrLit(input) && !share.has(input);
    const { total, files } = attributedBytes(paths, (input) => share.has(input), { outputs });
    const definitions = attributedBytes(paths, isDefinitions, { outputs }).total;
    const kit = [...inputs].filter((input) => isDefinitions(input) && !isToolKit(input)).sort();
    t.diagnostic(`${tool}: ai-ops + Lit ${total} B min+gzip in ${files.length} chunks (${files.map((f) => `${f.path.split('/').pop()} ${f.share}`).join(', ')}); `
      + `${total <= BUDGET ? 'within' : `over by ${total - BUDGET} B:`} PKG-4's ${BUDGET} B; the page's definitions (tools/ with ${kit.join(', ') || 'nothing else'}) ${definitions} B more`);
    assert.ok(share.has('elements/switch/ai-ops-switch.ts') && share.has('src/runtime.ts') && share.has('elements/react.ts'), `${tool}: the switch, the runtime and the React layer are ai-ops's share`);
    assert.ok(total <= BUDGET, `${tool}: ${total} B of ai-ops and Lit while off, over PKG-4's ${BUDGET} B`);
    assert.ok(total > 8000, `${tool}: the switch, the runtime and Lit are counted (${total} B)`);

    await clickSwitch(page, tool);
    await waitFor(() => logOrDialogChunks(requests.paths(), outputs).length >= 1, 10_000, `${tool}: the log and dialog chunks after switch-on`);
    await page.waitForFunction(() => customElements.get('ai-ops-log') !== undefined && customElements.get('ai-ops-confirm') !== undefined);
    await clickSwitch(page, tool);
    await page.close();
  }
});

test('[REACT-1] a minimal React page (the three wrappers, two operations of its own) loaded with its switch off loads no log or dialog code and at most PKG-4\'s 12,288 B of ai-ops and Lit', async (t) => {
  const outputs = outputsByUrlPath(minimal);
  const page = await browser.context.newPage();
  const requests = recordRequests(page, demo.origin);
  await page.goto(`${demo.origin}/${MINIMAL}/`, { waitUntil: 'networkidle' });
  const toggle = page.locator('ai-ops-switch[tool="notes"] input[role="switch"]');
  await toggle.waitFor();
  assert.equal(await toggle.isChecked(), false, 'the switch is off');
  const paths = requests.paths();
  assert.ok(paths.some((p) => outputs.has(p)), `the page's chunks were requested (${paths.join(', ')})`);
  assert.deepEqual(logOrDialogChunks(paths, outputs), [], 'no log or dialog chunk while off');
  const isOwn = (input) => input.startsWith('test/e2e/fixtures/react-minimal/');
  const { total, files } = attributedBytes(paths, isAiOpsOrLit, { outputs });
  const own = attributedBytes(paths, isOwn, { outputs }).total;
  t.diagnostic(`minimal React page: ai-ops + Lit ${total} B min+gzip in ${files.length} files (${files.map((f) => `${f.path.split('/').pop()} ${f.share}`).join(', ')}); `
    + `${total <= BUDGET ? 'within' : `over by ${total - BUDGET} B:`} PKG-4's ${BUDGET} B; its operations module ${own} B more`);
  const inputs = new Set(paths.flatMap((p) => Object.keys(outputs.get(p)?.inputs ?? {})));
  assert.ok(inputs.has('elements/react.ts') && inputs.has('src/runtime.ts') && !inputs.has('tools/shared.ts'), 'the React layer and the runtime load, nothing of ai-ops/tools');
  assert.ok(total <= BUDGET, `${total} B of ai-ops and Lit while off, over PKG-4's ${BUDGET} B`);
  assert.ok(total > 8000, `the switch, the runtime and Lit are counted (${total} B)`);

  await clickSwitch(page, 'notes');
  await waitFor(() => logOrDialogChunks(requests.paths(), outputs).length >= 1, 10_000, 'the log and dialog chunks after switch-on');
  await page.waitForFunction(() => customElements.get('ai-ops-log') !== undefined && customElements.get('ai-ops-confirm') !== undefined);
  await clickSwitch(page, 'notes');
  await page.close();
});
