// The node page end to end: the demo server with its localhost Node runner, Debian's Chromium, real
// Node processes. Every node operation is called through navigator.modelContextTesting.executeTool
// after a real click on the switch; confirmations are answered by real clicks. The editor is the
// app's CodeMirror editor and the terminal its xterm, read and typed into like a person does.
// Build first: `node esbuild.config.mjs node`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startDemo, launchBrowser, clickSwitch, waitFor, callInPage as call, axeViolations } from './harness.mjs';
import { editorText, terminalText, tokenClasses } from './editor.mjs';

const NODE_TOOLS = ['node_delete_file', 'node_list_files', 'node_read_file', 'node_run_command', 'node_write_file'];
const embedId = `e2e-${Date.now().toString(36)}`;

let demo, browser, page;
const requests = [];


const listedNodeTools = (target) =>
  target.evaluate(async () =>
    'modelContextTesting' in navigator ? (await navigator.modelContextTesting.listTools()).map((t) => t.name).filter((n) => n.startsWith('node_')) : [],
  );

const waitForTools = (target) => waitFor(async () => (await listedNodeTools(target)).length === NODE_TOOLS.length, 15_000, 'the five node tools');

const nodeE = (script, timeoutMs) => ({ command: 'node', args: ['-e', script], ...(timeoutMs ? { timeoutMs } : {}) });

/** The open file's editor and the terminal pane. */
const nodeEditor = (target = page) => target.locator('.editor-pane .cm-content');
const terminal = (target = page) => target.getByRole('region', { name: 'プロセスの出力' });

const processButton = (target, name) => target.locator('#process-list button', { has: target.locator('.name', { hasText: name }) });

before(async () => {
  demo = await startDemo();
  browser = await launchBrowser();
  browser.context.on('request', (request) => requests.push(request.url()));
  page = await browser.context.newPage();
  await page.goto(`${demo.origin}/node/?id=${embedId}`);
  await page.getByRole('treeitem', { name: 'index.js', exact: true }).waitFor();
  await clickSwitch(page, 'node');
  await waitForTools(page);
});

after(async () => {
  await browser?.close();
  await demo?.close();
});

test('[DOC-3] the title carries the embed id from ?id=', async () => {
  assert.equal(await page.title(), `${embedId} — node — ai-ops`);
  assert.deepEqual((await listedNodeTools(page)).sort(), NODE_TOOLS);
});

test('[NODE-1] while the runtime boots, and when it failed to boot, every node operation answers not_ready', async () => {
  const other = await browser.context.newPage();
  let release;
  const gate = new Promise((resolve) => (release = resolve));
  // The runner's first answer is held: the runtime is still booting.
  await other.route('**/__runner/info', async (route) => {
    await gate;
    await route.continue();
  });
  const inputs = {
    node_list_files: {},
    node_read_file: { path: 'index.js' },
    node_write_file: { path: 'x.txt', contents: 'x' },
    node_delete_file: { path: 'index.js' },
    node_run_command: nodeE('console.log(1)'),
  };
  const allNotReady = async (what) => {
    for (const [name, args] of Object.entries(inputs)) {
      const result = await call(other, name, args);
      assert.equal(result.error?.code, 'not_ready', `${what}: ${name} answered ${JSON.stringify(result)}`);
      assert.equal(result.isError, true);
    }
  };
  try {
    await other.goto(`${demo.origin}/node/?id=${embedId}-boot`);
    // The switch is stored on (the first page turned it on): the tools register at page load.
    await waitForTools(other);
    assert.equal(await other.locator('#runtime-status').textContent(), '起動中…');
    await allNotReady('booting');
    release();
    await waitFor(async () => (await call(other, 'node_list_files')).ok, 10_000, 'the boot');

    // A failed boot: the runner refuses. The page says so, and the operations answer not_ready.
    await other.unroute('**/__runner/info');
    await other.route('**/__runner/info', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"ok":false,"code":"internal","message":"runner error"}' }));
    await other.getByRole('button', { name: '再起動' }).click();
    await other.locator('#notice', { hasText: '起動できませんでした' }).waitFor();
    await allNotReady('failed');
    await other.unroute('**/__runner/info');
    // [NODE-2] 再起動 makes a new instance, and the operations use it at once.
    await other.getByRole('button', { name: '再起動' }).click();
    const listed = await waitFor(async () => {
      const r = await call(other, 'node_list_files');
      return r.ok && r;
    }, 10_000, 'the reboot');
    assert.ok(listed.entries.some((e) => e.path === 'index.js'));
    assert.equal(await other.locator('#notice').isHidden(), true);
  } finally {
    await other.close();
  }
});

test('[NODE-2] after 再起動 the operations use the new instance; its processes show in the terminal pane', async () => {
  const before = await call(page, 'node_run_command', nodeE('console.log("before")'));
  assert.equal(before.exitCode, 0);
  await processButton(page, 'ai: node').first().waitFor();
  await page.getByRole('button', { name: '再起動' }).click();
  await waitFor(async () => (await page.locator('#runtime-status').textContent()) === '', 10_000, 'the reboot');
  // The new instance has started no process yet.
  assert.equal(await page.locator('#process-list button').count(), 0);
  const after = await call(page, 'node_run_command', nodeE('console.log("after")'));
  assert.deepEqual(after, { isError: false, ok: true, exitCode: 0, output: 'after\n', truncated: false });
  await waitFor(async () => (await page.locator('#process-list button').count()) === 1, 5000, 'the new process in the pane');
});

test('[NODE-3] node_run_command `node -e "console.log(1)"` answers exitCode 0 and 1\\n; the process `ai: node` shows in the terminal pane', async () => {
  const result = await call(page, 'node_run_command', nodeE('console.log(1)'));
  assert.deepEqual(result, { isError: false, ok: true, exitCode: 0, output: '1\n', truncated: false });
  const button = processButton(page, 'ai: node').last();
  await button.waitFor();
  assert.equal(await button.getAttribute('aria-pressed'), 'true');
  await waitFor(async () => (await terminalText(terminal())) === '1\n', 5000, 'the output in the terminal pane');
  await waitFor(async () => /終了 0/.test(await button.textContent()), 5000, 'the exit in the pane');
});

test('[NODE-3] a non-zero exit answers ok:true with exitCode; stderr is in output', async () => {
  const result = await call(page, 'node_run_command', nodeE('console.error("bad"); process.exit(3)'));
  assert.deepEqual(result, { isError: false, ok: true, exitCode: 3, output: 'bad\n', truncated: false });
});

test('[NODE-4] `node -e "while(true){}"` with timeoutMs 1000 answers timeout, not before its timeoutMs, and the process is killed', async () => {
  const started = Date.now();
  const result = await call(page, 'node_run_command', nodeE('console.log("looping"); while(true){}', 1000));
  const took = Date.now() - started;
  assert.equal(result.ok, false);
  assert.equal(result.error.code, 'timeout');
  assert.equal(result.output, 'looping\n');
  assert.equal(result.truncated, false);
  // A loop with no end answers only by the kill; how late the answer comes is bench 50's budget.
  assert.ok(took >= 1000, `answered after ${took} ms`);
  const button = processButton(page, 'ai: node').last();
  await waitFor(async () => /終了/.test(await button.textContent()), 5000, 'the killed process to show as ended');
});

test('[NODE-5] output over 100,000 characters answers its last 100,000 with truncated; terminal controls are removed', async () => {
  const big = await call(page, 'node_run_command', nodeE('process.stdout.write("a".repeat(150000) + "THE END")'));
  assert.equal(big.exitCode, 0);
  assert.equal(big.truncated, true);
  assert.equal(big.output.length, 100_000);
  assert.ok(big.output.endsWith('aTHE END'));
  const coloured = await call(page, 'node_run_command', nodeE('console.log("\\x1b[31mred\\x1b[0m")'));
  assert.equal(coloured.output, 'red\n');
});

test('[IN-2] [IN-5] an unknown field, args that are not strings, or timeoutMs outside 1,000–120,000 answer invalid_input', async () => {
  assert.equal((await call(page, 'node_run_command', { ...nodeE('1'), timeoutMs: 999 })).error.code, 'invalid_input');
  assert.equal((await call(page, 'node_run_command', { command: 'node', args: [1] })).error.code, 'invalid_input');
  assert.equal((await call(page, 'node_run_command', { command: 'node', shell: true })).error.code, 'invalid_input');
  assert.equal((await call(page, 'node_read_file', { path: 'index.js', encoding: 'utf8' })).error.code, 'invalid_input');
});

test('[NODE-6] [FILE-5] node_write_file creates parents and overwrites; read returns it; the open editor follows', async () => {
  const written = await call(page, 'node_write_file', { path: 'src/lib/util.js', contents: 'module.exports = 42;\n' });
  assert.deepEqual(written, { isError: false, ok: true, path: 'src/lib/util.js' });
  await page.getByRole('treeitem', { name: 'util.js' }).waitFor();
  assert.deepEqual(await call(page, 'node_read_file', { path: 'src/lib/util.js' }), {
    isError: false, ok: true, path: 'src/lib/util.js', contents: 'module.exports = 42;\n',
  });
  // index.js is open in the editor; an agent's write shows there.
  assert.equal(await page.locator('#editor-label').textContent(), 'index.js');
  const contents = 'console.log(require("./src/lib/util.js"));\n';
  assert.equal((await call(page, 'node_write_file', { path: 'index.js', contents })).ok, true);
  await waitFor(async () => (await editorText(nodeEditor())) === contents, 5000, 'the editor to follow');
  const run = await call(page, 'node_run_command', { command: 'node', args: ['index.js'] });
  assert.equal(run.output, '42\n');
  assert.equal((await call(page, 'node_write_file', { path: 'src', contents: 'x' })).error.code, 'invalid_input');
  assert.equal((await call(page, 'node_write_file', { path: '../outside.txt', contents: 'x' })).error.code, 'invalid_input');
});

test('[APP-4] [NODE-6] node_write_file shows in the open CodeMirror editor (JavaScript mode) at once; one Ctrl+Z there brings back exactly the text before it', async () => {
  const box = nodeEditor();
  assert.equal(await box.getAttribute('aria-label'), 'index.js');
  await waitFor(async () => (await tokenClasses(box, '"./src/lib/util.js"')) !== '', 10_000, 'the JavaScript highlighting');
  const before = await editorText(box);
  assert.equal(before, (await call(page, 'node_read_file', { path: 'index.js' })).contents);
  const contents = 'console.log("the agent wrote this");\n';
  assert.equal((await call(page, 'node_write_file', { path: 'index.js', contents })).ok, true);
  assert.equal(await editorText(box), contents);
  assert.equal(await page.locator('#editor-state').textContent(), '', 'the agent\'s write is what the file holds');
  await box.click();
  await page.keyboard.press('Control+z');
  assert.equal(await editorText(box), before);
  // Taking it back is the person's edit: unsaved until they save it (Ctrl+S).
  assert.equal(await page.locator('#editor-state').textContent(), '保存していない変更があります');
  await page.keyboard.press('Control+s');
  await waitFor(async () => (await page.locator('#editor-state').textContent()) === '', 5000, 'the save');
  assert.equal((await call(page, 'node_read_file', { path: 'index.js' })).contents, before);
});

test('[APP-4] [NODE-5] [NODE-7] the terminal is an xterm showing a run\'s colours, while the agent\'s output has no escape codes', async () => {
  const result = await call(page, 'node_run_command', nodeE('console.log("\\x1b[31mred\\x1b[0m and \\x1b[1;32mgreen\\x1b[0m")'));
  assert.equal(result.output, 'red and green\n');
  assert.doesNotMatch(result.output, /\x1b/);
  assert.equal(await terminal().locator('.xterm .xterm-rows').count(), 1);
  await waitFor(async () => (await terminalText(terminal())) === 'red and green\n', 5000, 'the run in the terminal');
  const span = (text) => terminal().locator('.xterm-rows span').filter({ hasText: new RegExp(`^${text}$`) });
  assert.match(await span('red').getAttribute('class'), /\bxterm-fg-1\b/);
  assert.match(await span('green').getAttribute('class'), /\bxterm-bold\b/);
  assert.match(await span('green').getAttribute('class'), /\bxterm-fg-(2|10)\b/);
  assert.doesNotMatch((await span(' and ').getAttribute('class')) ?? '', /xterm-fg-/);
  // The colour is on screen: red is not the terminal's default foreground.
  const colours = await terminal().evaluate((region) => [...region.querySelectorAll('.xterm-rows span')].map((s) => getComputedStyle(s).color));
  assert.ok(new Set(colours).size >= 3, colours.join());
});

test('[APP-4] the page with its editor, file tree and terminal passes axe', async () => {
  assert.deepEqual(await axeViolations(page), []);
});

test('[FILE-3] node_list_files lists every level and omits node_modules/ and .git/; the page tree shows them dimmed', async () => {
  await call(page, 'node_write_file', { path: 'node_modules/pkg/index.js', contents: 'module.exports = 1;\n' });
  await call(page, 'node_write_file', { path: '.git/HEAD', contents: 'ref: refs/heads/main\n' });
  const listed = await call(page, 'node_list_files');
  assert.equal(listed.ok, true);
  const paths = listed.entries.map((e) => e.path);
  assert.ok(paths.includes('src/lib/util.js'));
  assert.ok(paths.includes('src/lib'));
  assert.deepEqual(paths.filter((p) => p.startsWith('node_modules') || p.startsWith('.git')), []);
  const under = await call(page, 'node_list_files', { path: 'src' });
  assert.deepEqual(under.entries, [
    { path: 'src/lib', kind: 'directory' },
    { path: 'src/lib/util.js', kind: 'file' },
  ]);
  assert.equal((await call(page, 'node_list_files', { path: '/tmp' })).error.code, 'invalid_input');
  await page.locator('#file-tree [role="treeitem"].excluded', { hasText: 'node_modules' }).waitFor();
});

test('[FILE-4] node_read_file: missing → not_found; a directory or binary → invalid_input; over 1 MB → too_large', async () => {
  const made = await call(page, 'node_run_command', nodeE(
    'const fs = require("fs"); fs.writeFileSync("bin.dat", Buffer.from([0, 1, 2, 255])); fs.writeFileSync("big.txt", "x".repeat(1100000));',
  ));
  assert.equal(made.exitCode, 0, made.output);
  assert.equal((await call(page, 'node_read_file', { path: 'missing.js' })).error.code, 'not_found');
  assert.equal((await call(page, 'node_read_file', { path: 'src' })).error.code, 'invalid_input');
  assert.equal((await call(page, 'node_read_file', { path: 'bin.dat' })).error.code, 'invalid_input');
  assert.equal((await call(page, 'node_read_file', { path: 'big.txt' })).error.code, 'too_large');
});

test('[FILE-6] [CONF-1] node_delete_file asks ファイル「‹パス›」を削除する / 削除する; a real click deletes; a directory → invalid_input; missing → not_found', async () => {
  const pending = call(page, 'node_delete_file', { path: 'src/lib/util.js' });
  const confirm = page.locator('ai-ops-confirm');
  await confirm.getByRole('heading', { name: 'ファイル「src/lib/util.js」を削除する' }).waitFor();
  await confirm.getByRole('button', { name: '削除する' }).click();
  assert.deepEqual(await pending, { isError: false, ok: true, path: 'src/lib/util.js' });
  assert.equal((await call(page, 'node_read_file', { path: 'src/lib/util.js' })).error.code, 'not_found');
  await waitFor(async () => (await page.getByRole('treeitem', { name: 'util.js' }).count()) === 0, 5000, 'the tree to drop util.js');
  assert.equal((await call(page, 'node_delete_file', { path: 'src/lib' })).error.code, 'invalid_input');
  assert.equal((await call(page, 'node_delete_file', { path: 'nothing.js' })).error.code, 'not_found');
  assert.equal(await confirm.getByRole('button', { name: '削除する' }).count(), 0);
});

test('[NODE-3] [NODE-6] a person uses the page without an agent: edit and save a file, run a command in the terminal', async () => {
  await page.getByRole('treeitem', { name: 'index.js', exact: true }).click();
  await waitFor(async () => (await editorText(nodeEditor())).includes('util.js'), 5000, 'index.js in the editor');
  await nodeEditor().fill('console.log("saved by a person");\n');
  assert.equal(await page.locator('#editor-state').textContent(), '保存していない変更があります');
  await page.getByRole('button', { name: '保存' }).click();
  await waitFor(async () => (await page.locator('#editor-state').textContent()) === '', 5000, 'the save');
  assert.equal((await call(page, 'node_read_file', { path: 'index.js' })).contents, 'console.log("saved by a person");\n');
  await page.getByLabel('コマンド').fill('node index.js');
  await page.getByLabel('コマンド').press('Enter');
  await processButton(page, 'node index.js').waitFor();
  await waitFor(async () => (await terminalText(terminal())) === 'saved by a person\n', 5000, 'the output');
});

test('[SW-8] [LOG-1] with the AI tab selected, switching off shows the terminal tab and keeps the stored selection', async () => {
  const tab = (name) => page.getByRole('tab', { name });
  const storedTab = () => page.evaluate(() => localStorage.getItem('node-bottom-tab'));
  const shownPanel = () => page.locator('[role="tabpanel"]:not([hidden])').getAttribute('id');
  await tab('AI からの操作').click();
  assert.equal(await storedTab(), 'ai');
  assert.equal(await shownPanel(), 'panel-ai');
  assert.equal(await page.locator('ai-ops-log[tool="node"]').evaluate((el) => el.visible), true);
  // Every call so far is a row of the log in the tab.
  assert.ok((await page.locator('ai-ops-log[tool="node"] [role="log"] > [part="row"]').count()) > 10);

  await clickSwitch(page, 'node');
  await waitFor(async () => (await shownPanel()) === 'panel-terminal', 5000, 'the terminal tab');
  assert.equal(await tab('AI からの操作').count(), 0, 'the AI tab is hidden while off');
  assert.equal(await tab('端末').getAttribute('aria-selected'), 'true');
  assert.equal(await storedTab(), 'ai');

  // On again: the stored selection shows again.
  await clickSwitch(page, 'node');
  await waitFor(async () => (await shownPanel()) === 'panel-ai', 5000, 'the AI tab again');

  // Off from another tab of the same tool.
  const other = await browser.context.newPage();
  try {
    await other.goto(`${demo.origin}/node/?id=${embedId}-other`);
    await other.locator('ai-ops-switch[tool="node"] input[role="switch"]:checked').waitFor();
    await clickSwitch(other, 'node');
    await waitFor(async () => (await shownPanel()) === 'panel-terminal', 5000, 'the terminal tab after the other tab turned off');
    assert.equal(await storedTab(), 'ai');
  } finally {
    await other.close();
  }
});

test('[SW-8] [PERM-5] when the switch expires with the AI tab selected, the terminal shows and the selection is kept', async () => {
  const expiring = await browser.context.newPage();
  try {
    // The page's clock jumps the 7 days (UV-3: a stored "on" must carry the receipt of a verified
    // switch-on, so the switch is turned on by a click, not written into storage).
    await expiring.clock.install();
    await expiring.goto(`${demo.origin}/node/?id=${embedId}-expiry`);
    await expiring.evaluate(() => localStorage.setItem('node-bottom-tab', 'ai'));
    await expiring.reload();
    const shownPanel = () => expiring.locator('[role="tabpanel"]:not([hidden])').getAttribute('id');
    if (!(await expiring.locator('ai-ops-switch[tool="node"] input[role="switch"]:checked').count())) await clickSwitch(expiring, 'node');
    await waitFor(async () => (await shownPanel()) === 'panel-ai', 10_000, 'the AI tab while on');
    await expiring.clock.fastForward(7 * 24 * 60 * 60 * 1000 + 1000);
    await waitFor(async () => (await shownPanel()) === 'panel-terminal', 10_000, 'the terminal after expiry');
    assert.equal(await expiring.evaluate(() => localStorage.getItem('node-bottom-tab')), 'ai');
    assert.equal(await expiring.evaluate(() => localStorage.getItem('fd-ai-operations:node')), null);
  } finally {
    await expiring.close();
  }
});

test('[SHAPE-7] every request of the pages stayed on this machine: the page\'s own origin (the demo server on http://localhost, its runner) and the relay widget\'s probes on 127.0.0.1', () => {
  assert.ok(requests.some((url) => url.startsWith(`${demo.origin}/__runner/`)));
  const elsewhere = requests.filter((url) => !url.startsWith(`${demo.origin}/`) && new URL(url).hostname !== '127.0.0.1');
  assert.deepEqual(elsewhere, []);
});
