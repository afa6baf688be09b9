// PKG-1..PKG-4 from outside the repository: the `npm pack` tarball installed in fresh projects in a
// temp folder, used by (a) a plain HTML page in Chromium, (b) a React 19 app type-checked under
// `strict` and built with esbuild, (c) the relay command started from the project's folder
// exactly as the README's MCP config says, with a real MCP client, and (d) a Vue 3 and (e) a
// Svelte 5 app, each with types generated from the manifest, built, and driven through that relay.
// Slow parts (pack ≈ 10 s, four installs from the npm cache, at once ≈ 15 s) run once, in `before`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { launchBrowser, freePort, waitFor, clickSwitch, relayedNames, callRelay, confirmDialog, readLogRows, pairPage, RELAY_RUNTIME_DIR } from '../e2e/harness.mjs';
import { createConsumer, installedPackages, packTarball, pinned, repo, serveConsumer, servePlain } from './consumer.mjs';
import { readmeRecipes } from '../node/readme.lib.mjs';
import { documentedSpecifiers, pkg as repoExports } from '../node/exports.lib.mjs';

const run = promisify(execFile);
const repoPackage = JSON.parse(await readFile(join(repo, 'package.json'), 'utf8'));

/** The README's MCP server entry for ai-ops (section "Connect an agent", the first JSON block). */
async function readmeRelayConfig() {
  const readme = await readFile(join(repo, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Connect an agent'));
  const json = /```json\n([\s\S]*?)```/.exec(section)[1];
  return JSON.parse(json).mcpServers['ai-ops'];
}

let work, tarball, plain, react, vue, svelte, browser;
const timings = {};

before(async () => {
  work = await mkdtemp(join(tmpdir(), 'ai-ops-pack-'));
  let started = Date.now();
  tarball = await packTarball(work);
  timings.packMs = Date.now() - started;
  // npm's cache is safe for concurrent installs; the four take the time of the slowest.
  [plain, react, vue, svelte] = await Promise.all([
    createConsumer({ tarball, fixture: 'plain' }),
    createConsumer({ tarball, fixture: 'react', extra: ['react', 'react-dom', '@types/react', '@types/react-dom', 'typescript', 'esbuild'].map(pinned) }),
    createConsumer({ tarball, fixture: 'vue', extra: ['vue', 'typescript', 'esbuild'].map(pinned) }),
    createConsumer({ tarball, fixture: 'svelte', extra: ['svelte', 'typescript', 'esbuild'].map(pinned) }),
  ]);
  started = Date.now();
  browser = await launchBrowser();
  timings.browserMs = Date.now() - started;
});

after(async () => {
  await browser?.close();
  for (const dir of [plain?.dir, react?.dir, vue?.dir, svelte?.dir, work]) if (dir) await rm(dir, { recursive: true, force: true });
});

test('[PKG-1] the tarball installs into a fresh project with none of this repository\'s devDependencies', async (t) => {
  t.diagnostic(`npm run build + npm pack ${timings.packMs} ms; install (a) ${plain.installMs} ms, (b) ${react.installMs} ms, (d) ${vue.installMs} ms, (e) ${svelte.installMs} ms, at once`);
  const installed = await installedPackages(plain.dir);
  assert.ok(installed.includes('ai-ops'));
  // The relay brings its own MCP SDK: the package's dependencies' dependency, not a leaked devDependency.
  const viaDependencies = new Set(['@modelcontextprotocol/sdk']);
  const leaked = Object.keys(repoPackage.devDependencies).filter((name) => !viaDependencies.has(name) && installed.includes(name));
  assert.deepEqual(leaked, []);
  const manifest = JSON.parse(await readFile(join(plain.dir, 'node_modules/ai-ops/package.json'), 'utf8'));
  assert.equal(manifest.private, undefined);
  assert.equal(manifest.license, 'MIT');
  assert.ok(existsSync(join(plain.dir, 'node_modules/ai-ops/LICENSE')));
  assert.ok(existsSync(join(plain.dir, 'node_modules/ai-ops', manifest.customElements)), 'custom-elements.json is shipped');
  assert.ok(!existsSync(join(plain.dir, 'node_modules/ai-ops/dist/site/sql')), 'no playground page in the package');
});

test('[PKG-3] every import path the docs use, and every exports entry, resolves to a file of the installed package, with its types', async () => {
  const specifiers = new Set((await documentedSpecifiers()).keys());
  for (const subpath of Object.keys(repoExports.exports)) {
    if (!subpath.includes('*')) specifiers.add(subpath === '.' ? 'ai-ops' : `ai-ops/${subpath.slice(2)}`);
  }
  // Node's own resolver, run inside the consumer project (the `import` condition).
  const script = `for (const s of JSON.parse(process.argv[1])) console.log(JSON.stringify([s, import.meta.resolve(s)]))`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script, JSON.stringify([...specifiers])], { cwd: plain.dir });
  const problems = [];
  for (const line of stdout.trim().split('\n')) {
    const [specifier, url] = JSON.parse(line);
    const file = new URL(url).pathname;
    if (!file.startsWith(join(plain.dir, 'node_modules/ai-ops/'))) problems.push(`${specifier} -> ${file}`);
    else if (!existsSync(file)) problems.push(`${specifier} -> ${file} (missing)`);
    else if (file.endsWith('.js') && file.includes('/dist/lib/') && !existsSync(file.replace(/\.js$/, '.d.ts'))) problems.push(`${specifier}: no .d.ts`);
  }
  assert.deepEqual(problems, []);
  assert.ok(specifiers.has('ai-ops/elements/define.js') && specifiers.has('ai-ops/elements/strings-en.js'));
});

test('[PKG-1] [PKG-4] (a) a plain HTML page loads the bundle and vendor files from node_modules/ai-ops: while off no vendor file and no log or dialog code; on, both', async (t) => {
  const server = await serveConsumer(plain.dir);
  const page = await browser.context.newPage();
  const loaded = [];
  page.on('response', async (response) => {
    const { pathname } = new URL(response.url());
    if (!pathname.startsWith('/ai-ops/')) return;
    loaded.push({ path: pathname, gzip: gzipSync(await response.body(), { level: 9 }).length });
  });
  try {
    await page.goto(`${server.origin}/?relayPort=9`);
    await page.locator('ai-ops-switch[tool="notes"] input[role="switch"]').waitFor();
    await page.waitForLoadState('networkidle');
    const off = [...loaded];
    const offBytes = off.reduce((sum, file) => sum + file.gzip, 0);
    t.diagnostic(`switch off: ${off.length} files of ai-ops and Lit, ${(offBytes / 1024).toFixed(1)} KB min+gzip -9: ${off.map((f) => `${f.path.split('/').pop()} ${f.gzip}`).join(', ')}`);
    assert.ok(off.some((f) => f.path === '/ai-ops/ai-ops.js'), 'the bundle came from the installed package');
    assert.deepEqual(off.filter((f) => /\/vendor\/|ai-ops-(log|confirm)-/.test(f.path)).map((f) => f.path), []);
    assert.equal(await page.evaluate(() => customElements.get('ai-ops-log') === undefined), true);

    await clickSwitch(page, 'notes');
    await page.waitForFunction(() => 'modelContextTesting' in navigator && customElements.get('ai-ops-log') !== undefined);
    await waitFor(() => loaded.some((f) => f.path.endsWith('/vendor/mcp-b-global.js')), 10_000, 'the polyfill');
    const on = loaded.slice(off.length).map((f) => f.path.replace(/-[A-Z0-9]{8}\.js$/, '.js'));
    for (const expected of ['/ai-ops/vendor/mcp-b-global.js', '/ai-ops/ai-ops-chunks/ai-ops-log.js', '/ai-ops/ai-ops-chunks/ai-ops-confirm.js']) {
      assert.ok(on.includes(expected), `${expected} loads with the switch-on`);
    }
    // DOOR-9: the relay widget waits for a pairing (none here): no embed.js, no socket.
    assert.ok(!on.includes('/ai-ops/vendor/relay/embed.js'), 'no relay embed before the user pairs');
    const result = await page.evaluate(() => navigator.modelContextTesting.executeTool('notes_read', '{}'));
    assert.deepEqual(JSON.parse(JSON.parse(result).content[0].text), { text: '買い物: 牛乳、卵', ok: true });
    await page.locator('ai-ops-log[tool="notes"] [role="log"]').waitFor({ state: 'attached' });
  } finally {
    await page.close();
    await server.close();
  }
});

test('[PKG-1] [PKG-2] (c) the relay started from the project folder as the README says lists the page\'s operations after its switch is clicked', async () => {
  const server = await serveConsumer(plain.dir);
  const port = await freePort();
  const { command, args } = await readmeRelayConfig();
  assert.equal(command, 'npx');
  assert.ok(args.includes('--no-install'), 'the README\'s command never installs a package');
  const origin = args.indexOf('--widget-origin');
  const relayArgs = [...args.slice(0, origin + 1), server.origin, ...args.slice(origin + 2), '--port', String(port)];
  const home = await mkdtemp(join(tmpdir(), 'ai-ops-consumer-home-'));
  const transport = new StdioClientTransport({ command, args: relayArgs, cwd: plain.dir, env: { PATH: process.env.PATH ?? '', HOME: home, AI_OPS_RELAY_RUNTIME_DIR: RELAY_RUNTIME_DIR }, stderr: 'pipe' });
  const client = new Client({ name: 'ai-ops-consumer', version: '1.0.0' });
  const page = await browser.context.newPage();
  try {
    await client.connect(transport);
    await page.goto(`${server.origin}/?relayPort=${port}`);
    await page.locator('ai-ops-switch[tool="notes"] input[role="switch"]').waitFor();
    assert.deepEqual(await relayedNames(client), []);
    await clickSwitch(page, 'notes');
    // DOOR-6: the user pairs the page with the agent's relay (the code it told them).
    await pairPage(page, client, 'notes');
    const names = await waitFor(async () => {
      const listed = await relayedNames(client);
      return listed.length === 2 && listed;
    }, 30_000, 'the notes operations through the relay');
    assert.deepEqual(names, ['notes_clear', 'notes_read']);
    const read = await client.callTool({ name: 'notes_read', arguments: {} });
    assert.equal(read.isError, undefined);
    assert.deepEqual(JSON.parse(read.content[0].text), { text: '買い物: 牛乳、卵', ok: true });
    const wrong = await client.callTool({ name: 'notes_read', arguments: { extra: 1 } });
    assert.equal(wrong.isError, true);
    assert.equal(JSON.parse(wrong.content[0].text).error.code, 'invalid_input');
  } finally {
    await page.close();
    await client.close().catch(() => {});
    await server.close();
    await rm(home, { recursive: true, force: true });
  }
  // Nothing of the relay outlives its client (npx passes the closed stdin on).
  await waitFor(async () => (await freePort(port, port).catch(() => null)) === port, 10_000, `relay port ${port} to be free again`);
});

test('[PKG-1] [PKG-3] (b) a React 19 app importing ai-ops/react and ai-ops/tools/slides, with a raw <ai-ops-switch> in TSX, type-checks under strict and builds with esbuild', async () => {
  const bin = (name) => join(react.dir, 'node_modules/.bin', name);
  const typecheck = await run(bin('tsc'), ['--noEmit', '-p', 'tsconfig.json'], { cwd: react.dir }).catch((error) => error);
  assert.equal(typecheck.code ?? 0, 0, `tsc --noEmit failed:\n${typecheck.stdout ?? ''}${typecheck.stderr ?? ''}`);
  // The check is real: a number for `tool` on the raw tag is refused.
  const wrong = await run(bin('tsc'), ['--noEmit', '--strict', '--jsx', 'react-jsx', '--module', 'esnext', '--moduleResolution', 'bundler', '--target', 'es2022', 'bad.tsx'], { cwd: react.dir }).catch((error) => error);
  assert.notEqual(wrong.code ?? 0, 0);
  assert.match(wrong.stdout, /bad\.tsx.*Type 'number' is not assignable to type 'string'/);

  await run(bin('esbuild'), ['app.tsx', '--bundle', '--format=esm', '--minify', '--outfile=app.js', '--define:process.env.NODE_ENV="production"'], { cwd: react.dir });
  const server = await serveConsumer(react.dir);
  const page = await browser.context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  try {
    await page.goto(`${server.origin}/`);
    await page.locator('ai-ops-switch[tool="slides"]:not([hidden]) input[role="switch"]').first().waitFor();
    assert.equal(await page.locator('h1').textContent(), 'Demo deck');
    assert.equal(await page.locator('#status').textContent(), 'off');
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
    await server.close();
  }
});

/** Runs a command of a consumer project (its node_modules/.bin), resolving with its exit and output. */
async function runIn(dir, command, args) {
  const result = await run(command, args, { cwd: dir, maxBuffer: 64 << 20, env: { ...process.env, npm_config_update_notifier: 'false' } }).catch((error) => error);
  return { code: result.code ?? 0, output: `${result.stdout ?? ''}${result.stderr ?? ''}` };
}

/**
 * The part of (d) and (e) before the browser: the package's `ai-ops-types` command, run from the
 * project folder with `npx --no-install` (the installed package, as PKG-2's relay command), writes
 * the framework's tag types from the installed manifest; `tsc` checks the app with them under
 * `strict` and refuses `bad.ts` (a number for the switch's `tool`), so the types are what checks.
 */
async function generateAndTypeCheck(dir, framework, extraFiles = []) {
  const generated = await runIn(dir, 'npx', ['--no-install', 'ai-ops-types', framework, '--out', `ai-ops-${framework}.d.ts`]);
  assert.equal(generated.code, 0, generated.output);
  const types = await readFile(join(dir, `ai-ops-${framework}.d.ts`), 'utf8');
  for (const tag of ['ai-ops-switch', 'ai-ops-confirm', 'ai-ops-log']) assert.ok(types.includes(`'${tag}'`), `${tag} in the generated types`);
  const tsc = join(dir, 'node_modules/.bin/tsc');
  const typecheck = await runIn(dir, tsc, ['-p', 'tsconfig.json']);
  assert.equal(typecheck.code, 0, `tsc failed:\n${typecheck.output}`);
  const wrong = await runIn(dir, tsc, ['--noEmit', '--strict', '--module', 'esnext', '--moduleResolution', 'bundler', '--target', 'es2022', 'bad.ts', `ai-ops-${framework}.d.ts`, ...extraFiles]);
  assert.notEqual(wrong.code, 0, 'bad.ts type-checks: the generated types check nothing');
  assert.match(wrong.output, /bad\.ts.*Type 'number' is not assignable to type 'string'/);
}

/**
 * The part of (d) and (e) in the browser, the same for both apps (each renders the three raw tags
 * for the slides tool, shows the deck's Markdown in `#markdown` and what its own listeners heard
 * in `#heard`): the README's relay command started from the project folder, a real MCP client on
 * it; the switch clicked registers the three operations; a read; a write approved and one declined
 * in the dialog; the log's rows; and every `ai-ops-*` event reaching the framework's handlers.
 */
async function driveThroughRelay(t, dir, deckName) {
  const server = await serveConsumer(dir);
  const port = await freePort();
  const { command, args } = await readmeRelayConfig();
  const origin = args.indexOf('--widget-origin');
  const relayArgs = [...args.slice(0, origin + 1), server.origin, ...args.slice(origin + 2), '--port', String(port)];
  const home = await mkdtemp(join(tmpdir(), 'ai-ops-consumer-home-'));
  const transport = new StdioClientTransport({ command, args: relayArgs, cwd: dir, env: { PATH: process.env.PATH ?? '', HOME: home, AI_OPS_RELAY_RUNTIME_DIR: RELAY_RUNTIME_DIR }, stderr: 'pipe' });
  const client = new Client({ name: 'ai-ops-consumer', version: '1.0.0' });
  // A browser of its own, so a fresh virtual authenticator: the shared one is one device for the
  // whole context, every consumer page is on `localhost` (one WebAuthn RP ID whatever the port),
  // each switch-on enrols a resident credential, and Chromium's virtual authenticator refuses a
  // fourth one (NotAllowedError) — (a) and (c) have enrolled two by now.
  const own = await launchBrowser();
  const page = await own.context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  // Network refusals are not the app's errors: the favicon's 404, the relay port's 426 to the widget's probe.
  const consoleLines = [];
  page.on('console', (message) => {
    consoleLines.push(`${message.type()}: ${message.text()} (${message.location().url})`);
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) errors.push(message.text());
  });
  const heard = () => page.locator('#heard li').allTextContents();
  let freed = false;
  /** Starts `name` through the relay, answers its dialog with the button `action`, returns the answer. */
  const answered = async (name, input, action) => {
    await page.bringToFront();
    const pending = callRelay(client, name, input);
    const dialog = confirmDialog(page);
    await dialog.getByRole('heading', { name: `スライド「${deckName}」の全文を置き換える` }).waitFor({ timeout: 20_000 });
    await dialog.getByRole('button', { name: action }).click();
    const answer = await pending;
    await waitFor(async () => (await page.locator('ai-ops-confirm dialog[open]').count()) === 0, 10_000, 'the dialog to close');
    return answer;
  };
  try {
    let relayLog = '';
    transport.stderr.on('data', (chunk) => (relayLog += chunk));
    await client.connect(transport);
    await page.goto(`${server.origin}/?relayPort=${port}`);
    await page.locator('ai-ops-switch[tool="slides"] input[role="switch"]').waitFor();
    assert.equal(await page.locator('h1').textContent(), deckName);
    assert.deepEqual(await relayedNames(client), []);

    let started = Date.now();
    await clickSwitch(page, 'slides');
    // DOOR-6: the user pairs the page with the agent's relay (the code it told them).
    // (The frameworks set the log's `tool` as a property: the page's one log.)
    await pairPage(page, client, 'slides', { log: page.locator('ai-ops-log') });
    const names = await waitFor(async () => {
      const listed = await relayedNames(client);
      return listed.length === 3 && listed;
    }, 30_000, 'the slides operations through the relay').catch(async (error) => {
      const state = await page.evaluate(() => ({
        on: document.querySelector('ai-ops-switch')?.on, heard: document.querySelector('#heard')?.textContent,
        alert: document.querySelector('ai-ops-switch')?.shadowRoot?.querySelector('[role="alert"]')?.textContent,
        tools: navigator.modelContextTesting?.listTools().map((tool) => tool.name),
      }));
      throw new Error(`${error.message}; the page: ${JSON.stringify(state)}; the page's console:\n${consoleLines.join('\n')}\nthe relay said:\n${relayLog}`);
    });
    t.diagnostic(`switch click → 3 operations listed by the relay: ${Date.now() - started} ms`);
    assert.deepEqual(names, ['slides_read', 'slides_set_theme', 'slides_write']);

    const read = await callRelay(client, 'slides_read');
    assert.equal(read.isError, false, JSON.stringify(read.result));
    assert.equal(read.env.markdown, '# Hello\n\n---\n\n# World');

    const markdown = '# From the agent\n\n---\n\n# Two\n\n---\n\n# Three\n';
    started = Date.now();
    const written = await answered('slides_write', { markdown }, '置き換える');
    t.diagnostic(`slides_write call → dialog → approved → answered: ${Date.now() - started} ms`);
    assert.equal(written.isError, false, JSON.stringify(written.result));
    assert.equal(written.env.slideCount, 3);
    assert.equal(await page.locator('#markdown').textContent(), markdown, 'the framework re-rendered the deck');
    const declined = await answered('slides_write', { markdown: '# Not this\n' }, 'やめる');
    assert.equal(declined.env.error.code, 'declined');
    assert.equal(await page.locator('#markdown').textContent(), markdown);

    const rows = await readLogRows(page, 'slides');
    assert.deepEqual(rows.map((row) => row.name), ['slides_read', 'slides_write', 'slides_write']);

    const expected = ['switch slides true', 'log true', 'approve slides_write', 'decline slides_write cancel'];
    // The framework renders `#heard` after its handler ran: wait for that render.
    await waitFor(async () => (await heard()).length >= expected.length, 10_000, 'the app to show what it heard');
    assert.deepEqual((await heard()).sort(), [...expected].sort(), 'each ai-ops-* event reached the framework\'s handler once');
    assert.deepEqual(errors, []);
  } finally {
    await own.close();
    await client.close().catch(() => {});
    await server.close();
    await rm(home, { recursive: true, force: true });
    // Waited for even when the test failed: a relay still on its way out would hold the port the
    // next test's free-port probe may pick, and that test's page would talk to it.
    freed = await waitFor(async () => (await freePort(port, port).catch(() => null)) === port, 10_000, 'the port').then(() => true, () => false);
  }
  assert.ok(freed, `relay port ${port} to be free again`);
}

test('[PKG-1] [PKG-3] (d) a Vue 3 app renders the three tags with h(), type-checks them with GlobalComponents generated from the manifest, and serves an agent through the relay: switch, confirmation, log and ai-ops-* events in Vue listeners', async (t) => {
  await generateAndTypeCheck(vue.dir, 'vue');
  const build = await runIn(vue.dir, join(vue.dir, 'node_modules/.bin/esbuild'), [
    'app.ts', '--bundle', '--format=esm', '--minify', '--outfile=app.js', '--define:process.env.NODE_ENV="production"',
    // Vue's bundler build asks the bundler for these feature flags.
    '--define:__VUE_OPTIONS_API__=false', '--define:__VUE_PROD_DEVTOOLS__=false', '--define:__VUE_PROD_HYDRATION_MISMATCH_DETAILS__=false',
  ]);
  assert.equal(build.code, 0, build.output);
  await driveThroughRelay(t, vue.dir, 'Vue deck');
});

test('[PKG-1] [PKG-3] (e) a Svelte 5 app compiled by svelte/compiler uses the three tags with onai-ops-* attributes, type-checks them with svelteHTML types generated from the manifest, and serves an agent through the relay', async (t) => {
  await generateAndTypeCheck(svelte.dir, 'svelte', ['node_modules/svelte/svelte-html.d.ts']);
  const build = await runIn(svelte.dir, process.execPath, ['build.mjs']);
  assert.equal(build.code, 0, build.output);
  assert.deepEqual(JSON.parse(build.output).warnings, [], 'the Svelte compiler had nothing to say about the markup');
  await driveThroughRelay(t, svelte.dir, 'Svelte deck');
});

/**
 * A registry on 127.0.0.1 that knows one package, `ai-ops-relay` (as if someone had published that
 * name), or with `squatted` false none, and records every request.
 */
async function squattedRegistry({ squatted = true } = {}) {
  const requests = [];
  const server = createServer((req, res) => {
    requests.push(req.url);
    const origin = `http://127.0.0.1:${server.address().port}`;
    if (squatted && req.url === '/ai-ops-relay') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({
        name: 'ai-ops-relay', 'dist-tags': { latest: '9.9.9' },
        versions: { '9.9.9': { name: 'ai-ops-relay', version: '9.9.9', bin: { 'ai-ops-relay': 'index.js' }, dist: { tarball: `${origin}/ai-ops-relay/-/ai-ops-relay-9.9.9.tgz` } } },
      }));
    } else {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
    }
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${server.address().port}/`, requests, close: () => new Promise((done) => server.close(done)) };
}

/** Runs the README's relay command in `cwd` with `--help`, against `registry`, with no terminal. */
async function runReadmeCommand(cwd, registry) {
  const { command, args } = await readmeRelayConfig();
  const home = await mkdtemp(join(tmpdir(), 'ai-ops-npx-home-'));
  try {
    const child = spawn(command, [...args, '--help'], {
      cwd, stdio: ['pipe', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '', HOME: home, npm_config_registry: registry, npm_config_update_notifier: 'false' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    // Answers "y" if it ever asks to install (it must not ask).
    child.stdin.end('y\n');
    const code = await new Promise((done) => child.on('close', done));
    // npx makes an empty folder per command it resolves; an installed package would be inside it.
    const npxFiles = existsSync(join(home, '.npm/_npx')) ? (await readdir(join(home, '.npm/_npx'), { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name) : [];
    return { code, stdout, stderr, npxFiles };
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

test('[PKG-2] [FIRST-7] the README\'s relay command runs the installed package without asking the registry, and elsewhere fails at once without asking it or fetching a package of that name', async () => {
  const registry = await squattedRegistry();
  const elsewhere = await mkdtemp(join(tmpdir(), 'ai-ops-not-installed-'));
  try {
    const installed = await runReadmeCommand(plain.dir, registry.url);
    assert.equal(installed.code, 0, installed.stderr);
    assert.match(installed.stderr, /--widget-origin/, 'the relay printed its help (on stderr, stdout being MCP\'s)');
    assert.deepEqual(registry.requests, [], 'the installed command needs no registry');

    // FIRST-7: elsewhere it fails at once — `--offline`: not one request to the registry (without
    // it npx would ask first: a 404, or a minute of retries with no network) — naming the command.
    const missing = await runReadmeCommand(elsewhere, registry.url);
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /ENOTCACHED[\s\S]*ai-ops-relay/);
    assert.equal(missing.stdout, '', 'nothing of the squatted package ran');
    assert.deepEqual(registry.requests, [], 'the registry was not asked');
    assert.deepEqual(missing.npxFiles, [], 'nothing was installed into the npx cache');

    // The README's alternative names the file: Node says which one is missing.
    const byPath = await run(process.execPath, [join(elsewhere, 'node_modules/ai-ops/bin/ai-ops-relay.mjs'), '--help']).catch((error) => error);
    assert.notEqual(byPath.code ?? 0, 0);
    assert.match(byPath.stderr, /Cannot find module '.*node_modules\/ai-ops\/bin\/ai-ops-relay\.mjs'/);
    const { stderr } = await run(process.execPath, [join(plain.dir, 'node_modules/ai-ops/bin/ai-ops-relay.mjs'), '--help']);
    assert.match(stderr, /--widget-origin/);
  } finally {
    await registry.close();
    await rm(elsewhere, { recursive: true, force: true });
  }
});

/**
 * FIRST-1: a README recipe made as a reader makes it, inside a consumer project that installed the
 * packed package (its node_modules linked in, so the recipe's commands run as written): every file
 * exactly as the README shows it, then the recipe's commands but its `npm install` (done by the
 * project, which must hold each package that line names) and its server (the test's plain one).
 * @returns {Promise<string>} the recipe's folder
 */
async function makeRecipe(consumer, name) {
  const files = (await readmeRecipes())[name];
  const dir = join(consumer.dir, `recipe-${name}`);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  await symlink(join(consumer.dir, 'node_modules'), join(dir, 'node_modules'));
  const commands = files['commands.sh'].replace(/\\\n\s*/g, '').split('\n').filter(Boolean);
  const install = commands.find((line) => line.startsWith('npm install '));
  const installed = await installedPackages(consumer.dir);
  for (const name of install.split(/\s+/).slice(2)) assert.ok(installed.includes(name), `${name} of the recipe's npm install is installed`);
  const rest = commands.filter((line) => line !== install && !line.startsWith('python3 ')).join('\n');
  const made = await runIn(dir, 'sh', ['-e', '-c', rest]);
  assert.equal(made.code, 0, `the recipe's commands failed:\n${rest}\n${made.output}`);
  return dir;
}

/**
 * FIRST-1: a recipe's page served by a plain static server, the README's relay command started in
 * the recipe's folder on the relay's default port (the recipes configure none), a real MCP client
 * on it; the user turns the switch on with their device and pairs the page with the code the
 * agent got from the relay; the agent's notes_clear waits for the
 * dialog, which the user approves (verified); the note is empty; nothing in the console.
 */
async function driveRecipe(t, dir) {
  const server = await servePlain(join(dir, 'public'));
  assert.equal(await freePort(9333, 9333).catch(() => null), 9333, 'port 9333 is free (the recipes use the relay\'s default port)');
  const { command, args } = await readmeRelayConfig();
  const origin = args.indexOf('--widget-origin');
  const relayArgs = [...args.slice(0, origin + 1), server.origin, ...args.slice(origin + 2)];
  const home = await mkdtemp(join(tmpdir(), 'ai-ops-recipe-home-'));
  const transport = new StdioClientTransport({ command, args: relayArgs, cwd: dir, env: { PATH: process.env.PATH ?? '', HOME: home, AI_OPS_RELAY_RUNTIME_DIR: RELAY_RUNTIME_DIR }, stderr: 'pipe' });
  const client = new Client({ name: 'ai-ops-recipe', version: '1.0.0' });
  // A browser of its own: a fresh virtual authenticator (each enrolment takes one of its few resident credentials).
  const own = await launchBrowser();
  const page = await own.context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    // The favicon's 404 is the static server's, not the page's.
    if (['error', 'warning'].includes(message.type()) && !/favicon/.test(message.location().url)) problems.push(`${message.type()}: ${message.text()}`);
  });
  try {
    await client.connect(transport);
    await page.goto(`${server.origin}/`);
    const note = page.getByRole('textbox', { name: 'メモ' });
    await note.waitFor();
    assert.equal(await note.inputValue(), '買い物: 牛乳、卵', 'the page reads as UTF-8');
    await clickSwitch(page, 'notes');
    // The README's "Connect an agent": the agent asks the relay for a code, the user types it in the log.
    await pairPage(page, client, 'notes');
    await waitFor(async () => (await relayedNames(client)).includes('notes_clear'), 30_000, 'notes_clear through the relay');
    const { tools } = await client.listTools();
    assert.match(tools.find((tool) => tool.name === 'notes_clear').description, /メモを空にする。/);
    const started = Date.now();
    const pending = callRelay(client, 'notes_clear');
    const dialog = confirmDialog(page);
    await dialog.getByRole('heading', { name: 'メモを空にする' }).waitFor({ timeout: 20_000 });
    await dialog.getByRole('button', { name: '空にする' }).click();
    const answer = await pending;
    t.diagnostic(`notes_clear → dialog → approved with the device → answered: ${Date.now() - started} ms`);
    assert.equal(answer.isError, false, JSON.stringify(answer.result));
    assert.equal(await note.inputValue(), '');
    assert.deepEqual(problems, []);
  } finally {
    await own.close();
    await client.close().catch(() => {});
    await server.close();
    await rm(home, { recursive: true, force: true });
  }
  await waitFor(async () => (await freePort(9333, 9333).catch(() => null)) === 9333, 10_000, 'relay port 9333 to be free again');
}

for (const [name, consumer] of [['plain', () => plain], ['react', () => react], ['vue', () => vue], ['svelte', () => svelte]]) {
  test(`[FIRST-1] the README's ${name} recipe, made as written from the packed package and served by a plain static server, takes a confirmed call from a real MCP client through the relay`, async (t) => {
    await driveRecipe(t, await makeRecipe(consumer(), name));
  });
}
