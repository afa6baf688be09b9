// Bytes a page loads while every switch is off, and what switching on adds (issue 2 budgets:
// runtime + elements + Lit ≤ 20 KB min+gzip while off; 0 bytes of polyfill/relay while off).
import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

export const name = 'bytes: switch off vs on (min+gzip -9)';

const gz = async (path) => gzipSync(await readFile(path), { level: 9 }).length;

/** The entry and every chunk it imports statically (what loads before any switch is on). */
async function staticClosure(entry, seen = new Set()) {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  const text = await readFile(entry, 'utf8');
  for (const [, spec] of text.matchAll(/(?:^|[;}])\s*import\s*(?:[^"'()]*?from\s*)?["'](\.[^"']+)["']/g)) {
    await staticClosure(join(entry, '..', spec), seen);
  }
  return seen;
}
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

export async function run({ root, demo, browser }) {
  const site = join(root, 'dist/site');
  const offFiles = [...(await staticClosure(join(site, 'ai-ops/ai-ops.js')))];
  const bundle = (await Promise.all(offFiles.map(gz))).reduce((a, b) => a + b, 0);
  const onFiles = ['ai-ops/vendor/mcp-b-global.js', 'ai-ops/vendor/relay/embed.js', 'ai-ops/vendor/relay/widget.html'];
  const onBytes = (await Promise.all(onFiles.map((f) => gz(join(site, f))))).reduce((a, b) => a + b, 0);

  // Measured in the browser too: what the sample page actually requests before and after the click.
  const page = await browser.context.newPage();
  const requested = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  await page.goto(`${demo.origin}/sample/`);
  await page.locator('ai-ops-switch input[role="switch"]').waitFor();
  await page.waitForTimeout(500);
  const offVendor = requested.filter((p) => p.includes('/vendor/'));
  await page.locator('ai-ops-switch input[role="switch"]').click();
  await page.waitForFunction(() => 'modelContextTesting' in navigator);
  await page.waitForTimeout(500);
  const onVendor = requested.filter((p) => p.includes('/vendor/'));
  await page.locator('ai-ops-switch input[role="switch"]').click();
  await page.close();

  return [
    { label: `runtime + elements + Lit, switch off (${offFiles.length} files)`, value: kb(bundle), budget: '≤ 20 KB', ok: bundle <= 20 * 1024 },
    { label: 'polyfill/relay requested while off (browser)', value: `${offVendor.length} files, 0 bytes`, budget: '0', ok: offVendor.length === 0 },
    { label: 'added by switching on: polyfill + embed + widget', value: kb(onBytes) },
    { label: 'requested after switching on (browser)', value: onVendor.map((p) => p.split('/').pop()).join(', ') },
    { label: 'ratio on/off', value: `${((bundle + onBytes) / bundle).toFixed(1)}x` },
  ];
}
