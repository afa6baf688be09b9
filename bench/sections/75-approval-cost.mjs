// UV-7's cost: the page's own part of one verified approval, without the OS prompt — the input
// digest of a 26 K-character input and the challenge (canonical JSON + SHA-256 of the call's
// description) before the prompt, and checkReceipt of a real ES256 assertion after it (client
// data, rpIdHash, DER → raw, SPKI import, ECDSA verify). Measured in the bench's browser page on
// the demo origin. That origin (127.0.0.1) cannot hold a credential, and this part needs none: the
// assertion is made in the page with WebCrypto, as the authenticator would make it
// (test/helpers/synthetic-assertion.mjs), before the timing starts.
import * as esbuild from 'esbuild';

export const name = 'approval cost: the page\'s part of one verified approval, no OS prompt (UV-7)';

const RUNS = 300;
const BUDGET_MS = 5;

const ENTRY = `
import { challengeOf, checkReceipt, inputDigest } from './src/consent-proof.ts';
import { makeKey, makeReceipt } from './test/helpers/synthetic-assertion.mjs';

window.benchApproval = async (runs) => {
  const input = { path: 'src/app.ts', text: 'const answer = 42; // ok\\n'.repeat(1040).slice(0, 26000) };
  const key = await makeKey(-7);
  const describe = async (callId) => ({
    kind: 'call', origin: location.origin, tool: 'node', operation: 'node_write_file',
    inputDigest: await inputDigest(input), callId, openedAt: 1764000000000 + callId, skipFuture: false,
  });
  // Each run checks its own call's receipt (each made beforehand: the authenticator's part).
  const receipts = [];
  for (let i = 0; i < runs + 20; i++) receipts.push(await makeReceipt(key, await describe(i)));
  const times = { total: [], before: [], check: [], plain: [] };
  for (let i = 0; i < runs + 20; i++) {
    // The baseline, interleaved: the least any digest of this input costs (no key sorting).
    const plainStart = performance.now();
    await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify(input)));
    const plainEnd = performance.now();
    const start = performance.now();
    const description = await describe(i);
    await challengeOf(description);
    const asked = performance.now();
    const reason = await checkReceipt({ ...receipts[i], description }, key.record);
    const end = performance.now();
    if (reason) throw new Error('the receipt did not check: ' + reason);
    // The first 20 warm the JIT and WebCrypto up.
    if (i < 20) continue;
    times.total.push(end - start);
    times.before.push(asked - start);
    times.check.push(end - asked);
    times.plain.push(plainEnd - plainStart);
  }
  const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor((s.length - 1) * p)]; };
  return {
    n: times.total.length, chars: input.text.length, json: JSON.stringify(input).length,
    total50: pct(times.total, 0.5), total95: pct(times.total, 0.95),
    before50: pct(times.before, 0.5), check50: pct(times.check, 0.5), plain50: pct(times.plain, 0.5),
  };
};
`;

/**
 * The bench page's script, bundled in memory. test/node/bench-sections.test.mjs builds it too, with
 * `overrides` of its own (the project's modules only: no dependency, no plugin).
 */
export async function bundle(root, overrides = {}) {
  const result = await esbuild.build({
    stdin: { contents: ENTRY, resolveDir: root, sourcefile: 'bench-approval.js', loader: 'js' },
    bundle: true, format: 'esm', target: 'es2022', write: false, logLevel: 'error',
    ...overrides,
  });
  return result.outputFiles[0].contents;
}

export async function run({ root, demo, browser }) {
  const script = await bundle(root);
  const page = await browser.context.newPage();
  const base = `${demo.origin}/bench-approval/`;
  await page.route(`${base}**`, (route) => {
    if (new URL(route.request().url()).pathname.endsWith('/main.js')) {
      return route.fulfill({ contentType: 'text/javascript', body: Buffer.from(script) });
    }
    return route.fulfill({ contentType: 'text/html', body: '<!doctype html><meta charset="utf-8"><title>bench</title><script type="module" src="./main.js"></script>' });
  });
  await page.goto(`${base}index.html`);
  await page.waitForFunction(() => typeof window.benchApproval === 'function');
  const stats = await page.evaluate((runs) => window.benchApproval(runs), RUNS);
  await page.close();
  // performance.now() is coarsened to 0.1 ms on a page that is not cross-origin isolated.
  const ms = (x) => `${x.toFixed(1)} ms`;
  return [
    { label: `baseline: JSON.stringify + SHA-256 of the input (${stats.json} chars), p50`, value: ms(stats.plain50) },
    { label: `before the prompt: input digest (${stats.chars}-char text) + challenge, p50`, value: ms(stats.before50) },
    { label: '  after it: checkReceipt of an ES256 assertion, p50', value: ms(stats.check50) },
    { label: `one approval's page-side part, p50 / p95 (n=${stats.n})`, value: `${ms(stats.total50)} / ${ms(stats.total95)}`, budget: `≤ ${BUDGET_MS} ms p50`, ok: stats.total50 <= BUDGET_MS },
  ];
}
